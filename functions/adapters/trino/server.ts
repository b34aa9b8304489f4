/**
 * @module trino/server
 * The local Trino server of the bloom engine: one coordinator (which is also its only worker) in a
 * child process of the local stack, configured under `<home>/trino/` and listening on 127.0.0.1
 * only. It is started on the first bloom statement rather than with the stack (a JVM start takes
 * ~25 s on two cores, and most stacks never run bloom), and stopped with the stack. Its size is
 * kept modest for a shared 2-core machine: a 2 GB heap and two task threads. Catalogs are dynamic
 * (`catalog.management=dynamic`, kept in memory): `trino/bloom-engine.ts` creates one per org,
 * and file-based access control lets each org's user use its own catalog only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { TrinoClient } from './client.ts';

/** Where Trino is installed and where its state goes. */
export interface TrinoServerOptions {
  /** The Trino install (`.lakeline/trino/trino-server-476`). */
  readonly installDir: string;
  /** The JDK home to run it with (`trino/java.ts`). */
  readonly javaHome: string;
  /** `<home>/trino`: configuration, data directory and logs. */
  readonly stateDir: string;
  /** JVM heap in MB. @default 2048 */
  readonly heapMb?: number;
  /** How long to wait for the server to start. @default 180000 */
  readonly startTimeoutMs?: number;
}

/** Whether an install directory is complete (setup.mjs writes the stamp last). */
export const trinoInstalled = (installDir: string): boolean => existsSync(path.join(installDir, '.lakeline-complete'));

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** The configuration files of a server on `port` (pure: unit-tested). */
export const trinoConfigFiles = (port: number, stateDir: string, heapMb: number): Record<string, string> => {
  // Query memory stays well inside the heap: Trino needs headroom for its own structures.
  const queryMb = Math.max(256, Math.floor(heapMb * 0.5));
  return {
    'node.properties': ['node.environment=lakeline', 'node.id=lakeline-local', `node.data-dir=${path.join(stateDir, 'data')}`, 'node.bind-ip=127.0.0.1', 'node.internal-address=127.0.0.1'].join('\n'),
    'jvm.config': [
      '-server',
      `-Xmx${heapMb}m`,
      '-XX:+UseG1GC',
      '-XX:+ExitOnOutOfMemoryError',
      '-Djdk.attach.allowAttachSelf=true',
      // Two cores shared with the stack and other engines: keep the JVM's own thread pools small.
      '-XX:ActiveProcessorCount=2',
    ].join('\n'),
    'config.properties': [
      'coordinator=true',
      'node-scheduler.include-coordinator=true',
      `http-server.http.port=${port}`,
      `discovery.uri=http://127.0.0.1:${port}`,
      `query.max-memory=${queryMb}MB`,
      `query.max-memory-per-node=${queryMb}MB`,
      'task.concurrency=2',
      'task.max-writer-count=1',
      'catalog.management=dynamic',
      'catalog.store=memory',
      `access-control.config-files=${path.join(stateDir, 'etc', 'access-control.properties')}`,
      // Local only: the web UI is not needed and stays off.
      'web-ui.enabled=false',
    ].join('\n'),
    'log.properties': 'io.trino=WARN\n',
    // File-based access control: who may use which catalog (`rules.json`, see {@link catalogRules}).
    'access-control.properties': ['access-control.name=file', `security.config-file=${path.join(stateDir, 'etc', 'rules.json')}`, `security.refresh-period=${RULES_REFRESH_MS}ms`].join('\n'),
  };
};

/** How often Trino re-reads the access rules. */
export const RULES_REFRESH_MS = 500;
/** The Trino user that manages catalogs (never an org's). */
export const ADMIN_USER = 'lakeline';

/**
 * The access rules (pure: unit-tested): the admin user manages every catalog; each org's user
 * (its catalog name) may use its own catalog and nothing else — a fourth line of org isolation,
 * behind the firewall, the qualifier and the absent session catalog.
 */
export const catalogRules = (orgCatalogs: readonly string[]): object => ({
  catalogs: [
    { user: ADMIN_USER, catalog: '.*', allow: 'owner' },
    ...orgCatalogs.map((c) => ({ user: c, catalog: c, allow: 'all' })),
    // Nobody reads the system catalog (its runtime tables show every org's queries); built-in
    // functions need no catalog access.
    { catalog: 'system', allow: 'none' },
  ],
});

/** A running local Trino server. */
export class LocalTrinoServer {
  private readonly orgCatalogs: string[] = [];

  private constructor(
    readonly client: TrinoClient,
    readonly version: string,
    private readonly child: ChildProcess,
    private readonly rulesFile: string,
  ) {}

  /**
   * Lets an org's user (its catalog name) use its catalog, before the catalog is created: the rules
   * file is replaced whole (a rename, so Trino never reads half of it), then Trino's next re-read
   * is waited for.
   */
  async allowOrgCatalog(catalog: string): Promise<void> {
    if (this.orgCatalogs.includes(catalog)) return;
    this.orgCatalogs.push(catalog);
    const next = `${this.rulesFile}.next`;
    writeFileSync(next, JSON.stringify(catalogRules(this.orgCatalogs)));
    renameSync(next, this.rulesFile);
    await new Promise((r) => setTimeout(r, RULES_REFRESH_MS * 3));
  }

  /** Starts a server and waits until it answers as started. */
  static async start(options: TrinoServerOptions): Promise<LocalTrinoServer> {
    const port = await freePort();
    const etc = path.join(options.stateDir, 'etc');
    mkdirSync(etc, { recursive: true });
    mkdirSync(path.join(options.stateDir, 'data'), { recursive: true });
    for (const [file, text] of Object.entries(trinoConfigFiles(port, options.stateDir, options.heapMb ?? 2048))) writeFileSync(path.join(etc, file), `${text}\n`);
    writeFileSync(path.join(etc, 'rules.json'), JSON.stringify(catalogRules([])));
    const launcher = path.join(options.installDir, 'bin', 'launcher');
    // `launcher run` stays in the foreground (it execs the JVM), so the child is the server itself.
    const child = spawn(launcher, ['run', `--etc-dir=${etc}`, `--data-dir=${path.join(options.stateDir, 'data')}`], {
      env: { ...process.env, JAVA_HOME: options.javaHome, PATH: `${path.join(options.javaHome, 'bin')}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    // The server must not outlive the stack, even when the stack exits without stopping it.
    const killOnExit = (): void => void child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.removeListener('exit', killOnExit));
    const client = new TrinoClient(`http://127.0.0.1:${port}`);
    const deadline = Date.now() + (options.startTimeoutMs ?? 180_000);
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the local Trino server exited (${child.exitCode ?? child.signalCode}) while starting: ${stderr.trim().slice(-1000)}`);
      const info = await client.info();
      if (info && info.starting === false) return new LocalTrinoServer(client, info.nodeVersion?.version ?? 'unknown', child, path.join(etc, 'rules.json'));
      await new Promise((r) => setTimeout(r, 500));
    }
    child.kill('SIGKILL');
    throw new Error(`the local Trino server did not start within ${Math.round((options.startTimeoutMs ?? 180_000) / 1000)} s`);
  }

  /** Whether the process is still running. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Stops the server: SIGTERM (Trino shuts down gracefully), SIGKILL after 15 s. */
  async stop(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
