// run_tests: one implementation (the job files' commands, run in child processes as a scheduler would)
/**
 * The job files of `examples/` run as written: from each file (a Slurm job array, a Kubernetes
 * Indexed Job, a GitHub Actions matrix) the test takes its bench command and its gather command,
 * runs the bench command once per index with the scheduler's own index variables set (a tiny case
 * list in place of the file's `BENCH_ARGS`), then the gather command, and checks that the merged run
 * holds every case of the list once (`report --merge`: "n of n cases, complete").
 */
import assert from "node:assert/strict";
import { parseResults, recordLine } from "../core/result.ts";
import { recordFixture } from "../core/result_fixture.ts";

const ROOT = new URL("../", import.meta.url);
/** The parts of each run: three shards of four cases (2, 1 and 1 of them). */
const SHARDS = 3;
/** The tiny case list the commands run here, in place of the job files' own: 4 cases. */
const TINY_CASES = "--scene dam-break-sph,dam-break-flip --scale tiny --steps 3 --seed 1,2";
const CASES = 4;

/** A job file and the index variables its scheduler sets for the task of index `i` (from 0). */
interface JobFile {
  path: string;
  indexEnv: (i: number, n: number) => Record<string, string>;
}

const JOB_FILES: readonly JobFile[] = [
  {
    path: "examples/slurm.sh",
    indexEnv: (i, n) => ({
      SLURM_JOB_ID: "1001",
      SLURM_ARRAY_TASK_ID: String(i),
      SLURM_ARRAY_TASK_COUNT: String(n),
    }),
  },
  {
    path: "examples/k8s-indexed-job.yaml",
    indexEnv: (i, n) => ({ JOB_COMPLETION_INDEX: String(i), SHARDS: String(n) }),
  },
  {
    path: "examples/github-actions.yml",
    indexEnv: (i, n) => ({ JOB_INDEX: String(i), JOB_TOTAL: String(n) }),
  },
];

/** The one line of `text` (comments aside) that contains `needle`, as a shell command. */
export function commandLine(text: string, needle: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) =>
    !l.startsWith("#") && l.includes(needle)
  );
  assert.equal(lines.length, 1, `one command with ${needle}: ${lines.join(" | ")}`);
  return lines[0].replace(/^-\s+/, "").replace(/^run:\s+/, "");
}

/** A job file's command run with this Deno from the local cache, as `deno task` would run it. */
function localized(command: string): string {
  const out = command
    .replace("npx -y deno@2.9.6 run -A ", '"$DENO_BIN" run -A --cached-only ')
    .replace("npx -y deno@2.9.6 task report ", '"$DENO_BIN" run -A --cached-only reports/main.ts ');
  assert.ok(out.startsWith('"$DENO_BIN" run -A --cached-only '), `runs Deno 2.9.6: ${command}`);
  return out;
}

/** Runs `command` in bash from `cwd` (the repository's root unless given) with `env` added. */
async function sh(command: string, env: Record<string, string>, cwd: URL | string = ROOT) {
  const out = await new Deno.Command("bash", {
    args: ["-c", `set -euo pipefail\n${command}`],
    cwd,
    env: { ...env, DENO_BIN: Deno.execPath() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("the Kubernetes Job's SHARDS is its completions count and parallelism", () => {
  const text = Deno.readTextFileSync(new URL("examples/k8s-indexed-job.yaml", ROOT));
  const completions = /^\s*completions:\s*(\d+)/m.exec(text)?.[1];
  const parallelism = /^\s*parallelism:\s*(\d+)/m.exec(text)?.[1];
  const shards = [...text.matchAll(/name: SHARDS\s*\n\s*value:\s*"(\d+)"/g)].map((m) => m[1]);
  assert.ok(completions, "completions");
  assert.equal(parallelism, completions);
  assert.deepEqual(shards, [completions, completions], "SHARDS in the bench and gather Jobs");
});

Deno.test("the GitHub Actions matrix gives each job its index and the matrix's size", () => {
  const text = Deno.readTextFileSync(new URL("examples/github-actions.yml", ROOT));
  assert.match(text, /JOB_INDEX: \$\{\{ strategy\.job-index \}\}/);
  assert.match(text, /JOB_TOTAL: \$\{\{ strategy\.job-total \}\}/);
});

Deno.test({
  name:
    "each job file's bench command, run at every index, and its gather step merge every case once",
  sanitizeResources: false,
  fn: async () => {
    for (const job of JOB_FILES) {
      const text = Deno.readTextFileSync(new URL(job.path, ROOT));
      const bench = localized(commandLine(text, "bench/main.ts"));
      const gather = localized(commandLine(text, "--merge"));
      assert.match(bench, /--shard /, `${job.path}: the bench command takes --shard`);
      const dir = Deno.makeTempDirSync({ prefix: "mergesplit-examples-" });
      try {
        const env = { BENCH_ARGS: TINY_CASES, OUT: dir };
        for (let i = 0; i < SHARDS; i++) {
          const r = await sh(bench, { ...env, ...job.indexEnv(i, SHARDS) });
          assert.equal(r.code, 0, `${job.path} index ${i}: ${r.stderr}`);
          assert.match(r.stderr, new RegExp(`\\(shard ${i + 1}/${SHARDS} of ${CASES} cases\\)`));
        }
        const places = [];
        for (const e of Deno.readDirSync(dir)) {
          const file = `${dir}/${e.name}/results.jsonl`;
          places.push(...parseResults(Deno.readTextFileSync(file)).map((r) => r.case!.index));
        }
        assert.deepEqual(places.sort(), [...Array(CASES).keys()], `${job.path}: every case once`);
        // the gather runs in the temporary folder, so that what it writes (a merged report)
        // lands there, not in the repository
        const report = new URL("reports/main.ts", ROOT).pathname;
        const merged = await sh(gather.replace(" reports/main.ts ", ` "${report}" `), env, dir);
        assert.equal(merged.code, 0, `${job.path} gather: ${merged.stderr}`);
        assert.match(merged.stdout, new RegExp(`${CASES} of ${CASES} cases, complete`));
      } finally {
        Deno.removeSync(dir, { recursive: true });
      }
    }
  },
});

/** A results text of one case whose 100 step times are `ms` × (0.95 … 1.05), evenly spread. */
function timedRun(ms: number): string {
  const samples = Array.from(
    { length: 100 },
    (_, k) => ms * (0.95 + (0.1 * ((k * 37) % 100)) / 99),
  );
  const r = recordFixture();
  r.timings!.phases.total = { ...r.timings!.phases.total, median: ms, samples, n: 100 };
  return recordLine(r);
}

Deno.test("the regression gate's report command: 0 on a re-run, 1 on a planted slowdown", async () => {
  const text = Deno.readTextFileSync(new URL("examples/github-regression-gate.yml", ROOT));
  const report = new URL("reports/main.ts", ROOT).pathname;
  const gate = localized(commandLine(text, "--fail-on-regression"))
    .replace(" reports/main.ts ", ` "${report}" `);
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-examples-" });
  try {
    Deno.mkdirSync(`${dir}/work`);
    for (const run of ["base", "head"]) Deno.mkdirSync(`${dir}/runs/${run}`, { recursive: true });
    const exit = async (head: number) => {
      Deno.writeTextFileSync(`${dir}/runs/base/results.jsonl`, timedRun(10));
      Deno.writeTextFileSync(`${dir}/runs/head/results.jsonl`, timedRun(head));
      const r = await sh(gate, {}, `${dir}/work`);
      return { code: r.code, text: r.stdout + r.stderr };
    };
    const again = await exit(10);
    assert.equal(again.code, 0, again.text);
    const slow = await exit(12);
    assert.equal(slow.code, 1, slow.text);
    assert.match(slow.text, /regression: fig4-fluid-cloth × merge-split \(tiny\): time: /);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
