#!/usr/bin/env node
// The `strikebook` command: runs the TypeScript CLI through tsx's loader (no build step for the Node side).
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli.ts');
