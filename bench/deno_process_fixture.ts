/**
 * Test fixture: runs a Deno script of the repository (`bench/main.ts`, `reports/main.ts`, …) in a
 * child process with this Deno, as a user would, and returns its exit status and output.
 *
 * @module
 */

/** What a child run gave. */
export interface ProcessOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `deno run -A --cached-only <args>`. `limitBlocks` runs it under `ulimit -f` (1 KiB blocks)
 * with SIGXFSZ ignored, so a write past the limit fails with EFBIG ("File too large") the way a
 * full disk fails with ENOSPC. The limit holds for every file the process writes, and SwiftShader
 * keeps its compiled shaders in a file it maps (past the limit: SIGBUS), so such a run uses the GL
 * backend (Mesa llvmpipe), whatever implementation the parent runs on. `full` sends the child's
 * stdout or stderr to `/dev/full`, where every write fails with ENOSPC (that stream then reads
 * empty).
 */
export async function runDeno(
  args: readonly string[],
  options: {
    limitBlocks?: number;
    full?: "stdout" | "stderr";
    cwd?: string;
    env?: Record<string, string>;
  } = {},
): Promise<ProcessOutcome> {
  const argv = [Deno.execPath(), "run", "-A", "--cached-only", ...args];
  const limit = options.limitBlocks ? `trap '' XFSZ; ulimit -f ${options.limitBlocks}; ` : "";
  const full = options.full ? ` ${options.full === "stdout" ? ">" : "2>"}/dev/full` : "";
  const quoted = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const gl: Record<string, string> = options.limitBlocks ? { DENO_WEBGPU_BACKEND: "gl" } : {};
  const out = await new Deno.Command(limit || full ? "bash" : argv[0], {
    args: limit || full ? ["-c", `${limit}exec ${quoted}${full}`] : argv.slice(1),
    cwd: options.cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...options.env, ...gl },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
