// run_tests: one implementation (the runner's timeouts and shared device)
import assert from "node:assert/strict";
import { getScene } from "../scenes/catalog.ts";
import { type CaseRecord, recordLine } from "../core/result.ts";
import { DeviceLease } from "./device_lease.ts";
import { Progress } from "./output/progress.ts";
import { type ProtocolOptions, runSuite } from "./runner.ts";
import { type CaseSpec, checkedCase } from "./cases/suite.ts";
import { captureEnvironment } from "./environment.ts";

// The runner on the software adapter with tiny scenes and a few steps per case.
const spec = (scene: string, handler: string): CaseSpec =>
  checkedCase({ scene: getScene(scene, { scale: "tiny" }), sceneSource: "catalog", handler }, "-");
const protocol: ProtocolOptions = {
  adapter: "software",
  steps: 10,
  warmup: 2,
  repeat: 1,
  timeout: 600,
};

/** Progress that makes the batch waits of case `k` never complete, and restores them after it. */
class HangCase extends Progress {
  readonly #k: number;
  #restore: (() => void) | null = null;
  constructor(k: number) {
    super(2, { tty: false, write: () => {} });
    this.#k = k;
  }
  override caseStart(index: number, label: string): void {
    super.caseStart(index, label);
    if (index !== this.#k) return;
    // the two waits a batch may end with: the phase timer's readback (timestamps) or
    // onSubmittedWorkDone (wall clock)
    const mapAsync = GPUBuffer.prototype.mapAsync;
    const done = GPUQueue.prototype.onSubmittedWorkDone;
    GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...args) {
      return this.label.includes("phase timer")
        ? new Promise<undefined>(() => {})
        : mapAsync.apply(this, args);
    };
    GPUQueue.prototype.onSubmittedWorkDone = () => new Promise<undefined>(() => {});
    this.#restore = () => {
      GPUBuffer.prototype.mapAsync = mapAsync;
      GPUQueue.prototype.onSubmittedWorkDone = done;
    };
  }
  override caseEnd(status: string, detail?: string): void {
    this.#restore?.();
    this.#restore = null;
    super.caseEnd(status, detail);
  }
}

Deno.test({
  name: "runner: GPU work that never completes ends its case as gpu-timeout; the suite goes on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const devices = new DeviceLease({ adapter: "software" });
    const progress = new HangCase(0);
    const cases = [
      spec("fig3-ball-cloth-high", "penalty-weak"),
      spec("fig3-ball-cloth-high", "penalty-weak"),
    ];
    try {
      const { records } = await runSuite(cases, { ...protocol, deadline: { floorSeconds: 1 } }, {
        environment: captureEnvironment,
        progress,
        devices,
      });
      const [stuck, next] = records;
      assert.equal(stuck.status, "gpu-timeout", stuck.error ?? "");
      assert.match(
        stuck.error!,
        /^GpuTimeoutError: GPU work did not complete: (mapAsync of the phase timer readback|onSubmittedWorkDone) in step batch 1 \(steps 0–1\) was still pending after 1\.0 s .*\(the device was replaced for the next case\)$/,
      );
      assert.ok(stuck.wallSeconds < 30, `the stuck case took ${stuck.wallSeconds} s`);
      assert.equal(next.status, "ok", next.error ?? "");
      assert.equal(next.stateHash?.length, 64);
      assert.equal(devices.acquired, 2, "the stuck case's device was replaced");
    } finally {
      devices.release();
    }
  },
});

/** A record without what may differ between two runs of a case: timings and compile figures. */
function comparable(r: CaseRecord): string {
  const {
    timings: _t,
    wallSeconds: _w,
    startedAt: _s,
    compileSeconds: _c,
    pipelines: _p,
    env: _e,
    ...rest
  } = r;
  // the host's encode-and-submit time is a timing too
  const { hostMsPerStep: _h, ...gpu } = rest.gpu ?? {};
  return recordLine({ ...rest, gpu } as CaseRecord);
}

Deno.test({
  name: "runner: cases share a device; a case after others records what it records alone",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // the first case runs first on a fresh device (as alone), then after two others on it
    const first = spec("fig4-fluid-cloth", "merge-split");
    const devices = new DeviceLease({ adapter: "software" });
    try {
      const { records } = await runSuite(
        [
          first,
          spec("fig9-flip-cloth", "merge-split"),
          spec("fig3-ball-cloth-high", "penalty-strong"),
          first,
        ],
        protocol,
        { environment: captureEnvironment, devices },
      );
      assert.deepEqual(records.map((r) => r.status), ["ok", "ok", "ok", "ok"]);
      assert.equal(devices.acquired, 1, "one device for the four cases");
      const [alone, , , again] = records;
      assert.ok(alone.pipelines!.created > 0 && alone.compileSeconds! > 0);
      assert.equal(again.stateHash, alone.stateHash);
      assert.equal(comparable(again), comparable(alone));
      // every pipeline of the case again came from the cache
      assert.equal(again.pipelines!.created, 0);
      assert.equal(again.pipelines!.reused, alone.pipelines!.created + alone.pipelines!.reused);
      assert.ok(again.compileSeconds! < alone.compileSeconds!);
    } finally {
      devices.release();
    }
  },
});

Deno.test({
  name: "runner: a run 5× the scene's duration has a metrics slot for every sample it takes",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Fig. 4 at tiny, cut to 20 steps sampled at every step: the run asks 5× its duration
    const base = getScene("fig4-fluid-cloth", { scale: "tiny" });
    const scene = { ...base, duration: 20 * base.dt, metricsEvery: 1 };
    const short = checkedCase({ scene, sceneSource: "catalog", handler: "merge-split" }, "-");
    const { steps: _, ...rest } = protocol;
    const { records } = await runSuite(
      [short],
      { ...rest, duration: 5 * scene.duration, warmup: 5 },
      { environment: captureEnvironment },
    );
    const [r] = records;
    assert.equal(r.status, "ok", r.error ?? "");
    assert.equal(r.timings?.phases.total.samples.length, 95, "100 steps, 5 of them warm-up");
  },
});
