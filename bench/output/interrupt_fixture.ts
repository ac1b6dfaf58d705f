/**
 * Test fixture: listens for the bench's stop signals, prints `ready`, and exits with the status
 * a run stopped that way gives once one arrives (`interrupt_test.ts`).
 *
 * @module
 */
import { listenForInterrupt } from "./interrupt.ts";

const interrupt = listenForInterrupt();
console.log("ready");
const poll = setInterval(() => {
  if (interrupt.by === null) return;
  clearInterval(poll);
  interrupt.stop();
  Deno.exit(interrupt.exitCode);
}, 20);
