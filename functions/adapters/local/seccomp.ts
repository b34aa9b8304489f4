/**
 * @module seccomp
 * The seccomp filter of the polars sandbox, as classic BPF for bubblewrap's `--seccomp FD`: a worker
 * may not create namespaces (`unshare`, `setns`, `clone` with any `CLONE_NEW*` flag), mount or
 * unmount, trace or read other processes' memory, load kernel code or BPF, use the kernel keyring,
 * or open files by handle. Those calls serve no dataframe workload and are the kernel surface an
 * escape would need (nested user namespaces are otherwise open to any uid on most kernels).
 * `clone3` answers ENOSYS, so the C library falls back to `clone`, whose flags a filter can read.
 * Any other architecture (the x32 ABI included) is killed.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff_0000;
const RET_KILL_PROCESS = 0x8000_0000;
const RET_ERRNO = 0x0005_0000;
const EPERM = 1;
const ENOSYS = 38;

/** Every `CLONE_NEW*` flag: NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME. */
const CLONE_NEW_MASK = 0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000 | 0x4000_0000 | 0x80;

interface Arch {
  readonly audit: number;
  readonly clone: number;
  readonly clone3: number;
  /** Syscalls refused with EPERM. */
  readonly denied: Readonly<Record<string, number>>;
  /** Numbers at or above this are another ABI (x32). */
  readonly abiBit?: number;
}

/** Numbers from the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl, asm-generic/unistd.h). */
export const ARCHES: Readonly<Record<string, Arch>> = {
  x64: {
    audit: 0xc000_003e,
    clone: 56,
    clone3: 435,
    abiBit: 0x4000_0000,
    denied: {
      unshare: 272, setns: 308, mount: 165, umount2: 166, pivot_root: 155, chroot: 161, ptrace: 101, process_vm_readv: 310, process_vm_writev: 311,
      bpf: 321, perf_event_open: 298, userfaultfd: 323, keyctl: 250, add_key: 248, request_key: 249, kexec_load: 246, kexec_file_load: 320,
      init_module: 175, finit_module: 313, delete_module: 176, open_by_handle_at: 304, name_to_handle_at: 303, swapon: 167, swapoff: 168, reboot: 169,
      open_tree: 428, move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442,
    },
  },
  arm64: {
    audit: 0xc000_00b7,
    clone: 220,
    clone3: 435,
    denied: {
      unshare: 97, setns: 268, mount: 40, umount2: 39, pivot_root: 41, chroot: 51, ptrace: 117, process_vm_readv: 270, process_vm_writev: 271,
      bpf: 280, perf_event_open: 241, userfaultfd: 282, keyctl: 219, add_key: 217, request_key: 218, kexec_load: 104, kexec_file_load: 294,
      init_module: 105, finit_module: 273, delete_module: 106, open_by_handle_at: 265, name_to_handle_at: 264, swapon: 224, swapoff: 225, reboot: 142,
      open_tree: 428, move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442,
    },
  },
};

type Op = { code: number; k: number; jt?: string; jf?: string } | { label: string };

/** The filter for an architecture (Node's `process.arch`), as bytes of `struct sock_filter`. */
export const seccompFilter = (arch: string = process.arch): Buffer => {
  const a = ARCHES[arch];
  if (!a) throw new Error(`no seccomp filter for architecture ${arch}`);
  const ops: Op[] = [
    { code: LD_W_ABS, k: 4 }, // seccomp_data.arch
    { code: JEQ_K, k: a.audit, jt: 'arch-ok', jf: 'kill' },
    { label: 'arch-ok' },
    { code: LD_W_ABS, k: 0 }, // seccomp_data.nr
    ...(a.abiBit ? [{ code: JGE_K, k: a.abiBit, jt: 'kill', jf: 'next-abi' }, { label: 'next-abi' }] : []),
    ...Object.values(a.denied).flatMap((nr, i): Op[] => [{ code: JEQ_K, k: nr, jt: 'deny', jf: `n${i}` }, { label: `n${i}` }]),
    { code: JEQ_K, k: a.clone3, jt: 'enosys', jf: 'not-clone3' },
    { label: 'not-clone3' },
    { code: JEQ_K, k: a.clone, jt: 'clone', jf: 'allow' },
    { label: 'clone' },
    { code: LD_W_ABS, k: 16 }, // low half of seccomp_data.args[0]: clone's flags
    { code: JSET_K, k: CLONE_NEW_MASK, jt: 'deny', jf: 'allow' },
    { label: 'allow' },
    { code: RET_K, k: RET_ALLOW },
    { label: 'deny' },
    { code: RET_K, k: RET_ERRNO | EPERM },
    { label: 'enosys' },
    { code: RET_K, k: RET_ERRNO | ENOSYS },
    { label: 'kill' },
    { code: RET_K, k: RET_KILL_PROCESS },
  ];
  const labels = new Map<string, number>();
  const instructions: Exclude<Op, { label: string }>[] = [];
  for (const op of ops) {
    if ('label' in op) labels.set(op.label, instructions.length);
    else instructions.push(op);
  }
  const out = Buffer.alloc(instructions.length * 8);
  instructions.forEach((ins, i) => {
    const offset = (label: string | undefined): number => {
      if (label === undefined) return 0;
      const target = labels.get(label);
      if (target === undefined) throw new Error(`seccomp: no label ${label}`);
      const jump = target - i - 1;
      if (jump < 0 || jump > 255) throw new Error(`seccomp: jump to ${label} out of range`);
      return jump;
    };
    out.writeUInt16LE(ins.code, i * 8);
    out.writeUInt8(offset(ins.jt), i * 8 + 2);
    out.writeUInt8(offset(ins.jf), i * 8 + 3);
    out.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return out;
};
