// The process's threads as Linux lists them, for the tests of the threads a generation starts.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The process's worker threads (Node names each `WorkerThread`): counting every thread would also
 * count those libuv or V8 start on demand mid-test, which never end.
 */
export const workerThreads = () => readdirSync('/proc/self/task').filter((task) => commandOf(task) === 'WorkerThread');

/** A thread's name; none for a thread that ended since the folder was listed. */
const commandOf = (task: string) => {
  try {
    return readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
};

/** A thread's nice value, the 19th field of its stat line (after the command name, which may hold spaces). */
export const niceOf = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
