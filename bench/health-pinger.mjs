// Asks GET <url> one request after another (a pause of <pauseMs> between them) from its own process, so that the
// latencies it sees are the server's and not the stalls of whoever drives the load. Prints "ready" once the first
// answer came; on a line "stop" on stdin prints [[sentAtEpochMs, latencyMs], ...] as JSON and exits.
import { request } from 'node:http';

const [url, pauseArg] = process.argv.slice(2);
const pauseMs = Number(pauseArg ?? 5);
const samples = [];
let stopping = false;

function once() {
  return new Promise((resolve) => {
    const sentAt = Date.now();
    const start = performance.now();
    const req = request(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => {
        samples.push([sentAt, performance.now() - start]);
        resolve();
      });
    });
    req.on('error', () => {
      samples.push([sentAt, -1]);
      resolve();
    });
    req.end();
  });
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  if (text.includes('stop')) stopping = true;
});

await once();
process.stdout.write('ready\n');
while (!stopping) {
  await once();
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
process.stdout.write(`${JSON.stringify(samples)}\n`);
process.exit(0);
