// Load generator for the HTTP bench, run as its own process so it does not share the server's event loop.
// Raw sockets with HTTP/1.1 pipelining keep the client's cost per request far below the server's, so the
// measurement is bound by the server under test. Prints the completed responses per second as JSON.
import { connect } from 'node:net';

const [port, path, host, token, durationMs, connections, depth] = process.argv.slice(2);
const request = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}Connection: keep-alive\r\n\r\n`);
const marker = Buffer.from('HTTP/1.1 ');
const okMarker = Buffer.from('HTTP/1.1 200 ');
let completed = 0;
let notOk = 0;
let total = 0;
let errors = 0;
let measuring = false;
const warmupMs = 300;

function countMarkers(buffer, tail) {
  const data = tail.length > 0 ? Buffer.concat([tail, buffer]) : buffer;
  let count = 0;
  let ok = 0;
  let index = data.indexOf(marker);
  // A status line split across chunks is counted from the kept tail on the next chunk.
  while (index !== -1 && index + okMarker.length <= data.length) {
    count += 1;
    if (data.subarray(index, index + okMarker.length).equals(okMarker)) ok += 1;
    index = data.indexOf(marker, index + marker.length);
  }
  const keepFrom = index === -1 ? Math.max(0, data.length - okMarker.length + 1) : index;
  return { count, ok, tail: data.subarray(keepFrom) };
}

const sockets = [];
for (let i = 0; i < Number(connections); i += 1) {
  const socket = connect(Number(port), '127.0.0.1');
  let tail = Buffer.alloc(0);
  let outstanding = 0;
  const fill = () => {
    const batch = [];
    while (outstanding < Number(depth)) {
      batch.push(request);
      outstanding += 1;
    }
    if (batch.length > 0) socket.write(Buffer.concat(batch));
  };
  socket.on('connect', fill);
  socket.on('data', (chunk) => {
    const result = countMarkers(chunk, tail);
    tail = result.tail;
    outstanding -= result.count;
    total += result.count;
    if (measuring) {
      completed += result.ok;
      notOk += result.count - result.ok;
    }
    fill();
  });
  socket.on('error', () => (errors += 1));
  sockets.push(socket);
}
setTimeout(() => {
  measuring = true;
  const start = performance.now();
  setTimeout(() => {
    const seconds = (performance.now() - start) / 1000;
    measuring = false;
    for (const socket of sockets) socket.destroy();
    process.stdout.write(JSON.stringify({ rps: completed / seconds, total, notOk, errors }) + '\n');
    process.exit(0);
  }, Number(durationMs));
}, warmupMs);
