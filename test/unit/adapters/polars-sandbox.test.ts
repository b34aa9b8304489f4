/**
 * The local polars sandbox's confinement as data: the bubblewrap command line (namespaces, what is
 * mounted and how, the uid drop) and the seccomp filter's encoding. The sandbox's behaviour against
 * hostile scripts is tested over HTTP (test/http/polars-hostile.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { bwrapArgs, type BwrapLayout } from '#adapters/local/bwrap-args';
import { ARCHES, seccompFilter } from '#adapters/local/seccomp';

const layout: BwrapLayout = {
  bwrap: '/usr/bin/bwrap',
  setpriv: '/usr/bin/setpriv',
  python: '/repo/.lakeline/venv/bin/python',
  venvPrefix: '/repo/.lakeline/venv',
  basePrefix: '/opt/python3.11',
  codeDir: '/repo/functions/polars',
  rootSymlinks: { '/lib': 'usr/lib', '/bin': 'usr/bin' },
  rootDirs: [],
};
const worker = { view: '/state/w1/view', warehouse: '/home/x/warehouse', inbox: '/state/w1/inbox', scratch: '/state/w1/scratch', uid: 300_001, seccompFd: 3 };

/** The (flag, from, to) triples of the bind options. */
const binds = (args: string[]): [string, string, string][] =>
  args.flatMap((a, i) => (a === '--ro-bind' || a === '--bind' ? [[a, args[i + 1] as string, args[i + 2] as string] as [string, string, string]] : []));

describe('bwrapArgs', () => {
  it('Should unshare the PID, network, IPC and UTS namespaces and die with its parent', () => {
    // Act
    const args = bwrapArgs(layout, worker);
    // Assess
    for (const flag of ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session']) expect(args).toContain(flag);
    expect(args).not.toContain('--unshare-user');
  });

  it('Should mount the system, Python and code read-only, the view at the warehouse path, and only the scratch writable', () => {
    // Act
    const mounts = binds(bwrapArgs(layout, worker));
    // Assess
    expect(mounts).toEqual([
      ['--ro-bind', '/usr', '/usr'],
      ['--ro-bind', '/opt/python3.11', '/opt/python3.11'],
      ['--ro-bind', '/repo/.lakeline/venv', '/repo/.lakeline/venv'],
      ['--ro-bind', '/repo/functions/polars', '/opt/lakeline-polars'],
      ['--ro-bind', '/state/w1/view', '/home/x/warehouse'],
      ['--ro-bind', '/state/w1/inbox', '/inbox'],
      ['--bind', '/state/w1/scratch', '/scratch'],
    ]);
  });

  it('Should create every mount point ancestor traversable, and /tmp read-only', () => {
    // Act
    const args = bwrapArgs(layout, worker);
    const dirs = args.flatMap((a, i) => (a === '--dir' ? [args[i + 1]] : []));
    // Assess
    expect(dirs).toEqual(expect.arrayContaining(['/tmp', '/home', '/home/x', '/repo', '/repo/.lakeline', '/opt']));
    expect(args.filter((a) => a === '--perms')).toHaveLength(dirs.length);
    expect(args).not.toContain('--tmpfs');
  });

  it('Should load the seccomp filter and drop to the worker uid without capabilities before Python', () => {
    // Act
    const args = bwrapArgs(layout, worker);
    const command = args.slice(args.indexOf('--') + 1);
    // Assess
    expect(args.slice(args.indexOf('--seccomp'), args.indexOf('--seccomp') + 2)).toEqual(['--seccomp', '3']);
    expect(command).toEqual(['/usr/bin/setpriv', '--reuid=300001', '--regid=300001', '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', layout.python, '-s', '-m', 'lakeline_polars']);
  });
});

describe('seccompFilter', () => {
  it.each(Object.keys(ARCHES).map((a) => [a]))('Should encode a filter for %s that checks the architecture first and ends in returns', (arch) => {
    // Act
    const filter = seccompFilter(arch);
    // Assess
    expect(filter.length % 8).toBe(0);
    expect(filter.readUInt16LE(0)).toBe(0x20);
    expect(filter.readUInt32LE(4)).toBe(4);
    expect(filter.readUInt32LE(12)).toBe(ARCHES[arch]?.audit);
    expect(filter.readUInt16LE(filter.length - 8)).toBe(0x06);
  });

  it('Should refuse an architecture it has no syscall table for', () => {
    expect(() => seccompFilter('mips')).toThrow(/no seccomp filter for architecture mips/);
  });
});
