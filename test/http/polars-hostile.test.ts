/**
 * Hostile scripts against the polars sandbox, on a stack of its own (a 3 s wall-clock limit): each
 * tries to reach something outside its request — host files, another org's table files, the
 * service's state and keys, the network, privileges, the worker itself — or to exhaust the machine
 * (fork bomb, memory bomb, endless loop). Each must fail inside the sandbox with a 400, and after
 * each the service must still answer a normal request correctly.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { orgWithKey, storesAt } from '../helpers/stores.ts';
import { buildTablesAt, polarsApi, type PolarsBody } from './polars-api.ts';
import type { Answer } from './warehouse-api.ts';

let stack: StackProcess;
let polars: (body: unknown) => Promise<Answer<PolarsBody>>;
/** A data file of the victim org's table, as a host path. */
let victimFile: string;
let victimOrgDir: string;
let warehouse: string;

const firstFile = (dir: string): string => {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      const found = firstFile(full);
      if (found) return found;
    } else if (entry.endsWith('.parquet')) return full;
  }
  return '';
};

beforeAll(async () => {
  stack = await startStackProcess(tempHome('polars-hostile'), 0, { LAKELINE_DEMO_DATA: '0', LAKELINE_POLARS_TIMEOUT_S: '3' });
  const stores = storesAt(stack.dynamodbEndpoint);
  try {
    const attacker = await orgWithKey(stores, { name: 'attacker', plan: 'pro', paymentMethod: true });
    const victim = await orgWithKey(stores, { name: 'victim', plan: 'pro', paymentMethod: true });
    await buildTablesAt(stack.home, attacker.org.orgId, 'mine', ['counter', 'partitioned']);
    await buildTablesAt(stack.home, victim.org.orgId, 'secret', ['partitioned']);
    polars = polarsApi(stack.baseUrl, attacker.token);
    warehouse = path.join(stack.home, 'warehouse');
    victimOrgDir = path.join(warehouse, `org_${victim.org.orgId.replaceAll('-', '').toLowerCase()}`);
    victimFile = firstFile(victimOrgDir);
    expect(victimFile).not.toBe('');
  } finally {
    stores.close();
  }
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  if (stack) rmSync(stack.home, { recursive: true, force: true });
});

// The service keeps serving: after every hostile request, a normal one gets the right answer.
afterEach(async () => {
  const answer = await polars({ mode: 'query', query: 'SELECT n FROM c', tables: ['c=mine.counter'] });
  expect(answer.status).toBe(200);
  expect(answer.body.results?.rows).toEqual([[1]]);
});

/** Runs a script and expects the sandbox to refuse it with a 400 whose error matches. */
const refused = async (script: string, pattern: RegExp, extra: Record<string, unknown> = {}): Promise<Answer<PolarsBody>> => {
  const answer = await polars({ mode: 'script', script, ...extra });
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ error: expect.stringMatching(pattern), details: expect.any(String) });
  return answer;
};

/** Runs a script that must succeed and returns its single value. */
const value = async (script: string, extra: Record<string, unknown> = {}): Promise<unknown> => {
  const answer = await polars({ mode: 'script', script, ...extra });
  expect(answer.status).toBe(200);
  return answer.body.results?.rows[0]?.[0];
};

const NOT_FOUND = /the script failed: (FileNotFoundError|PermissionError)/;

describe('polars sandbox: files', () => {
  it('Should not let a script read /etc/passwd', async () => {
    await refused('result = pl.DataFrame({"a": [open("/etc/passwd").read()]})', NOT_FOUND);
  });

  it('Should not let a script read /etc/shadow', async () => {
    await refused('result = pl.DataFrame({"a": [open("/etc/shadow").read()]})', NOT_FOUND);
  });

  it("Should not let a script read another org's table file by its path", async () => {
    await refused(`result = pl.read_parquet(${JSON.stringify(victimFile)}).lazy()`, /the script failed: FileNotFoundError/);
  });

  it("Should not let a script list another org's warehouse directory", async () => {
    await refused(`import os\nresult = pl.DataFrame({"a": os.listdir(${JSON.stringify(victimOrgDir)})})`, NOT_FOUND);
  });

  it("Should show a script only its own request's tables under the warehouse", async () => {
    // Act
    const seen = await value(`import os\nresult = pl.DataFrame({"a": [",".join(sorted(p for d, _, fs in os.walk(${JSON.stringify(warehouse)}) for p in [d]))]})`, { tables: ['c=mine.counter'] });
    // Assess
    expect(String(seen).split(',').every((d) => d === warehouse || d.includes('/mine/counter') || d.endsWith('/mine') || /org_[0-9a-f]+$/.test(d))).toBe(true);
    expect(String(seen)).not.toContain('partitioned');
  });

  it("Should not let a SQL query read another org's file with read_parquet", async () => {
    const answer = await polars({ mode: 'query', query: `SELECT * FROM read_parquet('${victimFile}')`, tables: ['c=mine.counter'] });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^SQL not allowed: .*read_parquet/);
  });

  it("Should not let a request register or scan another org's table by name", async () => {
    await refused('result = scan("c")', /tables\[0\]: table secret\.partitioned does not exist/, { tables: ['c=secret.partitioned'] });
    await refused('result = scan("secret.partitioned")', /table secret\.partitioned does not exist/);
  });

  it("Should not let a script read the service's state: the stack's keys file and catalog", async () => {
    await refused(`result = pl.DataFrame({"a": [open(${JSON.stringify(path.join(stack.home, 'local.json'))}).read()]})`, NOT_FOUND);
    await refused(`result = pl.DataFrame({"a": [open(${JSON.stringify(path.join(stack.home, 'catalog.db'))}, "rb").read(10)]})`, NOT_FOUND);
  });

  it("Should not let a script read the repository's files or .lakeline state beside the venv", async () => {
    await refused(`result = pl.DataFrame({"a": [open(${JSON.stringify(path.join(REPO_ROOT, 'package.json'))}).read()]})`, NOT_FOUND);
    await refused(`import os\nresult = pl.DataFrame({"a": os.listdir(${JSON.stringify(path.join(REPO_ROOT, '.lakeline', 'jars'))})})`, NOT_FOUND);
  });

  it("Should give a script none of the service's environment (keys, endpoints)", async () => {
    // Act
    const names = await value('import os\nresult = pl.DataFrame({"a": [",".join(sorted(os.environ))]})');
    // Assess
    expect(String(names)).not.toMatch(/AWS|SECRET|DYNAMO|SESSION|LAKELINE_HOME/);
  });

  it('Should not let a script write outside its scratch directory', async () => {
    await refused('open("/usr/lib/x", "w").write("x")\nresult = pl.DataFrame()', /the script failed: (OSError|PermissionError)/);
    await refused('open("/tmp/x", "w").write("x")\nresult = pl.DataFrame()', /the script failed: (OSError|PermissionError)/);
  });

  it("Should not let a script change its own request's table files", async () => {
    await refused(
      `import glob\nf = glob.glob(${JSON.stringify(warehouse)} + "/**/*.parquet", recursive=True)[0]\nopen(f, "wb").write(b"x")\nresult = pl.DataFrame()`,
      /the script failed: (OSError|PermissionError)/,
      { tables: ['c=mine.counter'] },
    );
  });
});

describe('polars sandbox: processes, privileges and the network', () => {
  it('Should not let a script reach the network', async () => {
    await refused('import socket\nsocket.create_connection(("1.1.1.1", 80), timeout=2)\nresult = pl.DataFrame()', /the script failed: OSError/);
  });

  it("Should not let a script reach the service's own port on localhost", async () => {
    const port = new URL(stack.baseUrl).port;
    await refused(`import socket\nsocket.create_connection(("127.0.0.1", ${port}), timeout=2)\nresult = pl.DataFrame()`, /the script failed: (ConnectionRefusedError|OSError)/);
  });

  it('Should not let a script resolve names', async () => {
    await refused('import socket\nsocket.getaddrinfo("example.com", 80)\nresult = pl.DataFrame()', /the script failed: (gaierror|OSError)/);
  });

  it('Should confine subprocess to the sandbox', async () => {
    await refused(`import subprocess\nsubprocess.run(["cat", ${JSON.stringify(victimFile)}], check=True)\nresult = pl.DataFrame()`, /the script failed: CalledProcessError/);
  });

  it('Should confine os.system to the sandbox', async () => {
    await refused('import os\nif os.system("cat /etc/passwd") != 0:\n    raise RuntimeError("os.system failed")\nresult = pl.DataFrame()', /the script failed: RuntimeError: os.system failed/);
  });

  it('Should not let ctypes create a user namespace, trace a process, mount or become root', async () => {
    const script = [
      'import ctypes',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'codes = [libc.unshare(0x10000000), libc.ptrace(16, 1, 0, 0), libc.mount(b"/", b"/mnt", None, 4096, None), libc.setuid(0)]',
      'if any(c == 0 for c in codes):',
      '    result = pl.DataFrame({"escaped": [True]})',
      'else:',
      '    raise PermissionError(f"refused: {codes}")',
    ].join('\n');
    await refused(script, /the script failed: PermissionError: refused: \[-1, -1, -1, -1\]/);
  });

  it('Should not let a subprocess enter new namespaces (unshare -U, -n)', async () => {
    await refused('import subprocess\nsubprocess.run(["unshare", "-Urn", "true"], check=True)\nresult = pl.DataFrame()', /the script failed: CalledProcessError/);
  });

  it('Should not let a script gain root with os.setuid', async () => {
    await refused('import os\nos.setuid(0)\nresult = pl.DataFrame()', /the script failed: PermissionError/);
  });

  it("Should not let a script read the worker's memory", async () => {
    await refused('import os\nopen(f"/proc/{os.getppid()}/mem", "rb").read(1)\nresult = pl.DataFrame()', /the script failed: (PermissionError|OSError)/);
  });

  it("Should not let a script read the sandbox init's environment", async () => {
    await refused('result = pl.DataFrame({"a": [open("/proc/1/environ", "rb").read()]})', /the script failed: PermissionError/);
  });

  it('Should keep collect refused when a script reaches polars through importlib', async () => {
    await refused('import importlib\nm = importlib.import_module("polars.lazyframe.frame")\nf = getattr(m.LazyFrame, "coll" + "ect")\nresult = f(scan("mine.counter"))', /calling \.collect\(\) is not allowed/);
  });

  it('Should confine a script that walks __subclasses__ to os functions', async () => {
    const script = [
      'wrap = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "_wrap_close"][0]',
      'system = wrap.__init__.__globals__["system"]',
      'if system("cat /etc/passwd > /dev/null") != 0:',
      '    raise RuntimeError("no passwd")',
      'result = pl.DataFrame()',
    ].join('\n');
    await refused(script, /the script failed: RuntimeError: no passwd/);
  });

  it('Should confine a script that walks frames to the builtins of the worker', async () => {
    const script = [
      'import sys',
      'frame = sys._getframe()',
      'while frame.f_back is not None:',
      '    frame = frame.f_back',
      'opener = frame.f_globals["__builtins__"]',
      'opener = opener["open"] if isinstance(opener, dict) else opener.open',
      'result = pl.DataFrame({"a": [opener("/etc/passwd").read()]})',
    ].join('\n');
    await refused(script, NOT_FOUND);
  });
});

describe('polars sandbox: exhaustion', () => {
  it('Should stop a fork bomb at the process limit', async () => {
    await refused('import os\nwhile True:\n    os.fork()\nresult = pl.DataFrame()', /the script failed: BlockingIOError|ran longer than its limit/);
  });

  it('Should stop a Python memory bomb at the memory limit', async () => {
    await refused('x = bytearray(64 * 1024**3)\nresult = pl.DataFrame()', /ran out of memory/);
  });

  it('Should stop a polars memory bomb at the memory limit', async () => {
    await refused('result = pl.select(pl.int_range(0, 4_000_000_000).alias("a")).lazy()', /out of memory|died/);
  });

  it('Should stop an endless loop at the wall-clock limit', async () => {
    // Act
    const started = Date.now();
    await refused('while True:\n    pass\nresult = pl.DataFrame()', /ran longer than its limit of 3 s and was stopped/);
    // Assess
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('Should stop an endless loop in polars itself at the wall-clock limit', async () => {
    await refused('result = pl.LazyFrame({"a": [1]}).select(pl.col("a").map_elements(lambda v: [0 for _ in iter(int, 1)], return_dtype=pl.Int64))', /ran longer than its limit/);
  });

  it('Should kill the processes a script leaves behind', async () => {
    // Act
    await value('import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(1000)\nresult = pl.DataFrame({"a": [1]})');
    const pids = await value('import os\nresult = pl.DataFrame({"a": [",".join(p for p in os.listdir("/proc") if p.isdigit())]})');
    // Assess: the sandbox's init, the worker and this request's own process only
    expect(String(pids).split(',')).toHaveLength(3);
  });

  it('Should replace a worker a script killed, with a clear error for that request', async () => {
    await refused('import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)\nresult = pl.DataFrame()', /polars sandbox stopped while running the request; it was replaced|ran longer/);
  });
});
