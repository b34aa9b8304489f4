/**
 * A Python with the pinned client packages of test/python/requirements.txt, for the suites that
 * drive real Python clients over HTTP (the OpenLineage and Marquez clients): the project venv when
 * it has them, else .lakeline/venv-test, created and filled once (redone only when the
 * requirements file changes).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './local-stack-process.ts';

const REQUIREMENTS = path.join(REPO_ROOT, 'test', 'python', 'requirements.txt');
const PROJECT_VENV = path.join(REPO_ROOT, '.lakeline', 'venv');
const TEST_VENV = path.join(REPO_ROOT, '.lakeline', 'venv-test');

/** `name==version` pins of the requirements file. */
const pins = (): Record<string, string> =>
  Object.fromEntries(
    readFileSync(REQUIREMENTS, 'utf8')
      .split('\n')
      .map((line) => /^\s*([A-Za-z0-9_.-]+)==([^\s#]+)/.exec(line))
      .flatMap((m) => (m ? [[(m[1] as string).toLowerCase(), m[2] as string]] : [])),
  );

/** Whether a venv's python has every pinned package at its pinned version. */
const satisfies = (python: string, wanted: Record<string, string>): boolean => {
  if (!existsSync(python)) return false;
  const script = `import importlib.metadata as m, json, sys\nout = {}\nfor n in sys.argv[1:]:\n    try: out[n] = m.version(n)\n    except m.PackageNotFoundError: out[n] = None\nprint(json.dumps(out))`;
  try {
    const found = JSON.parse(execFileSync(python, ['-c', script, ...Object.keys(wanted)], { encoding: 'utf8' })) as Record<string, string | null>;
    return Object.entries(wanted).every(([name, version]) => found[name] === version);
  } catch {
    return false;
  }
};

/** A python with the pinned packages: the project venv if it has them, else the test venv (installed idempotently). */
export const pythonWithPins = (): string => {
  const wanted = pins();
  const projectPython = path.join(PROJECT_VENV, 'bin', 'python');
  if (satisfies(projectPython, wanted)) return projectPython;
  const python = path.join(TEST_VENV, 'bin', 'python');
  const stamp = path.join(TEST_VENV, '.requirements-hash');
  const hash = createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(python)) return python;
  mkdirSync(path.dirname(TEST_VENV), { recursive: true });
  if (!existsSync(python)) execFileSync(process.env.LAKELINE_PYTHON ?? 'python3', ['-m', 'venv', TEST_VENV], { stdio: 'inherit' });
  execFileSync(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '-q', '-r', REQUIREMENTS], { stdio: 'inherit' });
  writeFileSync(stamp, hash);
  return python;
};
