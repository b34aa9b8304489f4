/**
 * @module lambda-stand-in
 * The emulator cannot run a Python Lambda without Docker, so the AWS suites run a function's own
 * handler the way the Lambda Python runtime would: `module.handler(event, context)` in a Python
 * process of its own, with the function's environment (the AWS profile's settings, the emulated
 * account's credentials and endpoint) and the runtime's boto3 beside its code. An exception the
 * handler does not catch comes back as the runtime reports it (`errorMessage`, `errorType`,
 * `stackTrace`). The `Invoke` API in front of it is `lambda-invoke-stand-in.ts`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { LAMBDA_RUNTIME_PACKAGES, REPO_ROOT } from './emulator.ts';

/** The project's Python (pyiceberg, pyarrow, polars: what the functions' packages hold). */
export const PRODUCT_PYTHON = path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python');

/** A Python Lambda function: where its code is and which handler the runtime calls. */
export interface PythonFunction {
  /** The directory the function's code is deployed from (its `LAMBDA_TASK_ROOT`). */
  readonly codeDir: string;
  /** `module.attribute` of the handler, as in the function's `Handler` setting. */
  readonly handler: string;
  /** The function's environment variables (the CDK app's, with the emulated account's). */
  readonly environment: Readonly<Record<string, string>>;
}

/** The Python runtime's report of an exception the handler did not catch. */
export interface RuntimeError {
  readonly errorMessage: string;
  readonly errorType: string;
  readonly stackTrace: readonly string[];
}

/** What one run of a handler gave: its answer, or the runtime's error document. */
export type HandlerOutcome = { readonly answer: unknown } | { readonly error: RuntimeError };

// The runtime's error types: an import failure is `Runtime.ImportModuleError`, anything the handler
// raises is named by its exception class (as `awslambdaric` reports them).
const RUNNER = `
import importlib, json, sys, traceback
module, _, attribute = sys.argv[1].rpartition(".")
try:
    handler = getattr(importlib.import_module(module), attribute)
except Exception as error:
    outcome = {"error": {"errorMessage": f"Unable to import module '{module}': {error}", "errorType": "Runtime.ImportModuleError", "stackTrace": []}}
else:
    try:
        outcome = {"answer": handler(json.load(sys.stdin), None)}
    except Exception as error:
        outcome = {"error": {"errorMessage": str(error), "errorType": type(error).__name__, "stackTrace": traceback.format_tb(error.__traceback__)}}
sys.stdout.write("\\n" + json.dumps(outcome))
`;

/** Runs a function's handler once with an event; resolves with its answer or the runtime's error document. */
export const runPythonHandler = (fn: PythonFunction, event: unknown): Promise<HandlerOutcome> =>
  new Promise((resolve, reject) => {
    const child = spawn(PRODUCT_PYTHON, ['-W', 'ignore', '-c', RUNNER, fn.handler], {
      cwd: fn.codeDir,
      // Only what Lambda would set: the function's own variables, a PATH, and the runtime's packages.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', TMPDIR: process.env.TMPDIR ?? '/tmp', LAMBDA_TASK_ROOT: fn.codeDir, PYTHONPATH: `${fn.codeDir}:${LAMBDA_RUNTIME_PACKAGES}`, ...fn.environment },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // The outcome is the last line; anything a library printed before it is log output.
      const last = out.trimEnd().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as HandlerOutcome);
      } catch {
        // The process died (a signal, the OOM killer): Lambda reports `Runtime.ExitError`.
        resolve({ error: { errorMessage: `RequestId: stand-in Error: Runtime exited with error: exit status ${code}: ${err.trim().split('\n').slice(-5).join('\n')}`, errorType: 'Runtime.ExitError', stackTrace: [] } });
      }
    });
    child.stdin.end(JSON.stringify(event));
  });

/** Runs a function's handler once; resolves with its answer, rejects with the runtime's error. */
export const invokePython = async (fn: PythonFunction, event: unknown): Promise<unknown> => {
  const outcome = await runPythonHandler(fn, event);
  if ('error' in outcome) throw new Error(`${fn.handler} raised ${outcome.error.errorType}: ${outcome.error.errorMessage}`);
  return outcome.answer;
};

/** The lake writer Lambda's code and handler (`lakewriter.handler.handler`), with a given environment. */
export const lakeWriterFunction = (environment: Readonly<Record<string, string>>): PythonFunction => ({
  codeDir: path.join(REPO_ROOT, 'functions', 'lakewriter'),
  handler: 'lakewriter.handler.handler',
  environment,
});

/** A polars sandbox Lambda's code and handler (`lakeline_polars.lambda_handler.handler`), with a given environment. */
export const polarsFunction = (environment: Readonly<Record<string, string>>): PythonFunction => ({
  codeDir: path.join(REPO_ROOT, 'functions', 'polars'),
  handler: 'lakeline_polars.lambda_handler.handler',
  environment,
});
