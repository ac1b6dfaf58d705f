/**
 * How a bench run is stopped from outside: SIGINT (Ctrl-C), SIGTERM (`kill`, a batch system's
 * time limit, `docker stop`) and SIGHUP (its terminal closed, an ssh session dropped) all stop it
 * after the case in progress has written what it finished, and release its output folder (the run
 * then exits 128 + the signal's number: 130, 143, 129); the same signal again ends it at once.
 * A run started by another process that names itself in {@link PARENT_PID_ENV} (`deno task
 * gpu-check`'s stages) also stops when that process is gone (killed, even by SIGKILL), and ends
 * at once a grace later, so that no stage outlives its check.
 *
 * @module
 */

/** Environment variable with the pid of the process a run must not outlive. */
export const PARENT_PID_ENV = "MERGESPLIT_PARENT_PID";

/** The signals that stop a run, and their numbers (exit status 128 + number). */
export const STOP_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/** A stop signal. */
export type StopSignal = keyof typeof STOP_SIGNALS;

/** What stopped a run, while it is being listened for. */
export interface Interrupt {
  /** The signal that asked the run to stop ("parent": its parent is gone); null: none yet. */
  readonly by: StopSignal | "parent" | null;
  /**
   * The exit status of a run stopped this way: 128 + the signal's number (130 SIGINT, 143 SIGTERM,
   * 129 SIGHUP), 143 for "parent".
   */
  readonly exitCode: number;
  /** Stops listening (the signals' default actions return). */
  stop(): void;
}

/** Options of {@link listenForInterrupt}. */
export interface InterruptOptions {
  /** Where the one-line notice goes (default stderr). */
  say?: (line: string) => void;
  /** How often the parent is looked for, ms (default 500). */
  pollMs?: number;
  /** How long a run whose parent is gone may take to stop before it is ended, ms (default 30 s). */
  graceMs?: number;
}

/** The stop signals this platform can listen for (Windows: SIGINT only). */
function stopSignals(): StopSignal[] {
  return Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM", "SIGHUP"];
}

/**
 * Listens for SIGINT, SIGTERM and SIGHUP (and for the parent named in {@link PARENT_PID_ENV}) until
 * {@link Interrupt.stop}: the first asks the run to stop (read {@link Interrupt.by} between
 * batches), the second ends the process with its exit status.
 */
export function listenForInterrupt(options: InterruptOptions = {}): Interrupt {
  const say = options.say ?? ((line: string) => console.error(line));
  let by: Interrupt["by"] = null;
  const exitCode = () => by === null || by === "parent" ? 143 : 128 + STOP_SIGNALS[by];
  const handlers = stopSignals().map((signal) => {
    const handler = () => {
      if (by !== null) Deno.exit(128 + STOP_SIGNALS[signal]);
      by = signal;
      try {
        say(
          `\ninterrupt (${signal}): stopping after writing the finished cases (${
            signal === "SIGINT" ? "Ctrl-C" : signal
          } again to quit now)`,
        );
      } catch {
        // the terminal is gone (SIGHUP): the run stops all the same
      }
    };
    Deno.addSignalListener(signal, handler);
    return { signal, handler };
  });
  const watch = watchParent(() => {
    if (by !== null) return;
    by = "parent";
    say("\ninterrupt: the process that started this run is gone; stopping");
    Deno.unrefTimer(Number(setTimeout(() => Deno.exit(143), options.graceMs ?? 30_000)));
  }, options.pollMs ?? 500);
  return {
    get by() {
      return by;
    },
    get exitCode() {
      return exitCode();
    },
    stop() {
      for (const { signal, handler } of handlers) Deno.removeSignalListener(signal, handler);
      if (watch !== undefined) clearInterval(watch);
    },
  };
}

/**
 * Calls `gone` once the parent named in {@link PARENT_PID_ENV} is no longer this process's parent
 * (it exited or was killed, and the process was handed to another); returns the interval's id, or
 * undefined when the variable is unset or no pid.
 */
function watchParent(
  gone: () => void,
  pollMs: number,
): ReturnType<typeof setInterval> | undefined {
  const pid = Number(Deno.env.get(PARENT_PID_ENV));
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const id = setInterval(() => {
    if (Deno.ppid === pid) return;
    clearInterval(id);
    gone();
  }, pollMs);
  Deno.unrefTimer(Number(id));
  return id;
}
