/**
 * @module lambda-stand-in
 * The emulator cannot invoke a Python Lambda without Docker, so the AWS suites call a function's
 * own handler the way the Lambda runtime would: `module.handler(event, context)` in a Python
 * process of its own, with the function's environment (the AWS profile's settings, the emulated
 * account's credentials and endpoint) and the runtime's boto3 beside its code. Everything past the
 * `Invoke` call — the handler and all it does in the emulated account — is the deployed code.
 * What `Invoke` itself sends is checked by the adapters' request-shape tests.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ProtocolLakeWriter, type LakeWriterAnswer } from '#domain/lake/lake-writer-protocol';
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

const RUNNER = `
import importlib, json, sys
module, _, attribute = sys.argv[1].rpartition(".")
handler = getattr(importlib.import_module(module), attribute)
answer = handler(json.load(sys.stdin), None)
sys.stdout.write("\\n" + json.dumps(answer))
`;

/** Invokes a function's handler once with an event; resolves with its JSON answer. */
export const invokePython = (fn: PythonFunction, event: unknown): Promise<unknown> =>
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
      // The handler's answer is the last line; anything a library printed before it is log output.
      const last = out.trimEnd().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`${fn.handler} exited with ${code} without an answer: ${err.trim().split('\n').slice(-5).join('\n')}`));
      }
    });
    child.stdin.end(JSON.stringify(event));
  });

/** The lake writer Lambda (`lakewriter.handler.handler`), behind the same protocol the Lambda adapter speaks. */
export class LakeWriterFunction extends ProtocolLakeWriter {
  constructor(private readonly environment: Readonly<Record<string, string>>) {
    super();
  }

  protected async send(request: Record<string, unknown>): Promise<LakeWriterAnswer> {
    return (await invokePython({ codeDir: path.join(REPO_ROOT, 'functions', 'lakewriter'), handler: 'lakewriter.handler.handler', environment: this.environment }, request)) as LakeWriterAnswer;
  }
}
