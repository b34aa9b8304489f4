/**
 * @module bwrap-args
 * The bubblewrap command line of one polars worker, as a pure function so its confinement can be
 * read and tested on its own. What the worker sees: the system's `/usr` (read-only), the Python
 * installation and venv (read-only), the worker code, the warehouse root showing only the current
 * request's table files (a per-worker directory of hard links, see polars-pool.ts), a read-only
 * inbox with the request, and a private writable scratch directory. No network (own network
 * namespace), own PID/IPC/UTS namespaces, no /etc, no home, no other org's files, no service state
 * (`.lakeline/`: catalog, keys). Inside, `setpriv` drops to a uid of its own with no capabilities,
 * so the worker cannot undo its mounts, and RLIMIT_NPROC (per uid) bounds its processes; a seccomp
 * filter (`seccomp.ts`) refuses namespaces, mounts, ptrace and the like.
 */
import path from 'node:path';

/** Where things are on the host. */
export interface BwrapLayout {
  readonly bwrap: string;
  readonly setpriv: string;
  /** The venv's python (absolute path inside the venv). */
  readonly python: string;
  /** `sys.prefix` (the venv) and `sys.base_prefix` (the installation) of that python. */
  readonly venvPrefix: string;
  readonly basePrefix: string;
  /** `functions/polars` (the `lakeline_polars` package). */
  readonly codeDir: string;
  /** Top-level paths that are symlinks on the host (merged /usr: `/lib -> usr/lib`), with their targets. */
  readonly rootSymlinks: Readonly<Record<string, string>>;
  /** Top-level system directories to bind read-only besides /usr (when they are real directories). */
  readonly rootDirs: readonly string[];
}

/** One worker's directories and limits. */
export interface BwrapWorker {
  /** Shown inside at `warehouse`: the hard links of the current request's tables. */
  readonly view: string;
  readonly warehouse: string;
  readonly inbox: string;
  readonly scratch: string;
  readonly uid: number;
  /** The descriptor (in bubblewrap) its seccomp filter is read from (`seccomp.ts`). */
  readonly seccompFd?: number;
}

/** Where the code, the inbox and the scratch directory appear inside the sandbox. */
export const SANDBOX_CODE_DIR = '/opt/lakeline-polars';
export const SANDBOX_INBOX = '/inbox';
export const SANDBOX_SCRATCH = '/scratch';

const ancestors = (target: string): string[] => {
  const out: string[] = [];
  for (let dir = path.dirname(target); dir !== '/' && dir !== '.'; dir = path.dirname(dir)) out.unshift(dir);
  return out;
};

const within = (child: string, parent: string): boolean => child === parent || child.startsWith(`${parent}/`);

/** The arguments of `bwrap` for one worker (the command runs `python -m lakeline_polars`). */
export const bwrapArgs = (layout: BwrapLayout, worker: BwrapWorker): string[] => {
  const readOnly: [string, string][] = [['/usr', '/usr']];
  for (const dir of layout.rootDirs) readOnly.push([dir, dir]);
  if (!within(layout.basePrefix, '/usr')) readOnly.push([layout.basePrefix, layout.basePrefix]);
  if (!within(layout.venvPrefix, '/usr') && layout.venvPrefix !== layout.basePrefix) readOnly.push([layout.venvPrefix, layout.venvPrefix]);
  readOnly.push([layout.codeDir, SANDBOX_CODE_DIR], [worker.view, worker.warehouse], [worker.inbox, SANDBOX_INBOX]);
  const mounts = [...readOnly.map(([, to]) => to), SANDBOX_SCRATCH];
  // Directories bubblewrap creates for mount points are 0700 when it runs as root: create every
  // ancestor first, world-traversable (they are empty; only the mounts hold anything).
  const dirs = [...new Set(mounts.flatMap(ancestors))].filter((d) => !Object.hasOwn(layout.rootSymlinks, d)).sort((a, b) => a.split('/').length - b.split('/').length);
  const args = ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--die-with-parent', '--new-session'];
  for (const dir of ['/tmp', ...dirs.filter((d) => d !== '/tmp')]) args.push('--perms', '0755', '--dir', dir);
  for (const [from, to] of readOnly) args.push('--ro-bind', from, to);
  for (const [link, target] of Object.entries(layout.rootSymlinks)) args.push('--symlink', target, link);
  args.push('--bind', worker.scratch, SANDBOX_SCRATCH, '--proc', '/proc', '--dev', '/dev', '--chdir', SANDBOX_SCRATCH);
  if (worker.seccompFd !== undefined) args.push('--seccomp', String(worker.seccompFd));
  args.push(
    '--',
    layout.setpriv,
    `--reuid=${worker.uid}`,
    `--regid=${worker.uid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    layout.python,
    '-s',
    '-m',
    'lakeline_polars',
  );
  return args;
};
