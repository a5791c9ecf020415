import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

export const BIN = join(REPO_ROOT, 'bin', 'strikebook.mjs');

/** Runs `strikebook <args>` to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  apiBaseUrl: string;
  port: number;
  keyFile: string;
  uiUrl: string | null;
  exited: Promise<number | null>;
}

/**
 * Starts `strikebook serve` and resolves once it has printed its addresses. `entry`: how to run the CLI (default
 * bin/strikebook.mjs; e.g. a bundle's cli.mjs, or bin/run-ts.mjs with the sources).
 */
export function startServe(args: string[], timeoutMs = 90_000, options: { entry?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...(options.entry ?? [BIN]), 'serve', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...options.env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in ${timeoutMs} ms\n${out}\n${err}`));
    }, timeoutMs);
    const check = () => {
      const api = /API:\s+(\S+)/.exec(out);
      const key = /Key file:\s+(.+)/.exec(out);
      const port = /Port:\s+(\d+)/.exec(out);
      if (api?.[1] && key?.[1] && port?.[1] && out.includes('Data:')) {
        clearTimeout(timer);
        const ui = /UI:\s+(http\S+)/.exec(out);
        resolve({ child, stdout: () => out, stderr: () => err, apiBaseUrl: api[1], port: Number(port[1]), keyFile: key[1].trim(), uiUrl: ui?.[1] ?? null, exited });
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}\n${out}\n${err}`));
    });
  });
}
