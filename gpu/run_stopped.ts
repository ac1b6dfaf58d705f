/**
 * The error a run ends with when it is asked to stop (timeout, interrupt, lost device).
 *
 * @module
 */

/** Thrown by `Engine.run` when `shouldStop` gives a reason (timeout, interrupt). */
export class RunStopped extends Error {
  /** Why the run stopped, e.g. `timeout`. */
  readonly reason: string;
  /** Steps completed in this call. */
  readonly completed: number;
  /** @param reason why the run stopped; @param completed steps completed in this call */
  constructor(reason: string, completed: number) {
    super(`run stopped after ${completed} steps: ${reason}`);
    this.name = "RunStopped";
    this.reason = reason;
    this.completed = completed;
  }
}
