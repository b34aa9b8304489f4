/**
 * @module spark-process
 * Process helpers for supervised local Spark runs: telling the run's process from a later one
 * that reused its pid (Linux `/proc/<pid>/stat` start time), checking liveness, and stopping a
 * run's whole process tree (spark-submit → JVM → Python driver share one process group).
 */
import { readFileSync } from 'node:fs';

/** Start time of a process in clock ticks since boot, or undefined where /proc is unavailable. */
export const processStartTicks = (pid: number): string | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Field 22 (starttime) is the 20th after the name; field 3 (state) is the first.
    return fields[19];
  } catch {
    return undefined;
  }
};

const isZombie = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
};

/** Whether `pid` is alive (a zombie waiting to be reaped counts as gone). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: gone. EPERM: the pid now belongs to another user's process, so not one of ours.
    return false;
  }
  return !isZombie(pid);
};

/**
 * Whether `pid` is still the process that was started with `startTicks`. Without /proc (not
 * Linux) liveness is all there is to go on.
 */
export const isSameProcess = (pid: number, startTicks: string | undefined): boolean => {
  if (!isAlive(pid)) return false;
  const now = processStartTicks(pid);
  return startTicks === undefined || now === undefined || now === startTicks;
};

/** Whether any process of a process group is left. */
export const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Sends a signal to every process of a group; a group that is already gone is fine. */
export const signalGroup = (pgid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(-pgid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
};

/**
 * Stops a process group: SIGTERM now (Spark shuts down and the JVM takes its Python driver with
 * it), SIGKILL after `graceMs` for anything that did not listen.
 */
export const stopGroup = (pgid: number, graceMs = 5_000): void => {
  signalGroup(pgid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  }, graceMs);
  timer.unref();
};
