/**
 * The set-up script's bookkeeping: "up to date" stamps depend on the inputs' contents only, and
 * what it prints into a log file carries no terminal escape codes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of Node built-ins, without type declarations
import { hashFiles, requiredNodeMajor, stripEscapes } from '../../../scripts/setup.mjs';

const checkout = (contents: string): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lakeline-clone-'));
  mkdirSync(path.join(dir, 'nested'), { recursive: true });
  writeFileSync(path.join(dir, 'requirements.lock'), contents);
  return dir;
};

describe('set-up stamps', () => {
  it('Should give two clones in different directories the same stamp for the same inputs', () => {
    const a = checkout('pyiceberg==0.12.0\n');
    const b = checkout('pyiceberg==0.12.0\n');
    expect(hashFiles([path.join(a, 'requirements.lock')], a)).toBe(hashFiles([path.join(b, 'requirements.lock')], b));
  });

  it('Should change the stamp when an input changes', () => {
    const a = checkout('pyiceberg==0.12.0\n');
    const b = checkout('pyiceberg==0.12.1\n');
    expect(hashFiles([path.join(a, 'requirements.lock')], a)).not.toBe(hashFiles([path.join(b, 'requirements.lock')], b));
  });
});

describe('set-up output', () => {
  it('Should strip colour codes and progress-bar carriage returns from tool output', () => {
    const raw = '\u001b[33mnpm warn\u001b[39m EBADENGINE\rprogress 10%\rprogress 100%\r\ndone\u001b[?25h';
    const text = stripEscapes(raw) as string;
    expect(text.includes("\u001b")).toBe(false);
    expect(text).toBe('npm warn EBADENGINE\nprogress 10%\nprogress 100%\r\ndone');
  });
});

describe('set-up: the Node the npm scripts need', () => {
  it('Should read the lowest major from engines.node', () => {
    // Assess
    expect(requiredNodeMajor({ engines: { node: '>=22' } })).toBe(22);
  });

  it.each([['^22.1.0'], ['>=22 <25'], [undefined]])('Should refuse engines.node %s, naming it', (range) => {
    // Assess
    expect(() => requiredNodeMajor({ engines: { node: range } })).toThrow(`package.json engines.node must read ">=N", not ${JSON.stringify(range)}`);
  });
});
