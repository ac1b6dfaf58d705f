/**
 * Headless Chromium for looking at a report as a person would: found at $CHROMIUM when set, else
 * at Debian's and Ubuntu's paths (`apt-get install -y chromium`); WebGL runs on SwiftShader
 * (software), so no GPU is needed. Used by the browser test and `reports/page/screenshot.ts`.
 *
 * @module
 */

/** Where Chromium is looked for: $CHROMIUM when set (only that path), else the distributions'. */
export const CHROMIUM_CANDIDATES: readonly string[] = Deno.env.get("CHROMIUM")
  ? [Deno.env.get("CHROMIUM")!]
  : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** The first candidate that is a file, or null. */
export function findChromium(): string | null {
  for (const p of CHROMIUM_CANDIDATES) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Runs headless Chromium (`chromium`, a path from {@link findChromium}) with `args` and a fresh
 * profile folder; returns its stdout. Throws with the end of its stderr when it fails, or after
 * `timeoutMs` (default 45 s).
 */
export async function runChromium(
  chromium: string,
  args: readonly string[],
  options: { profile: string; timeoutMs?: number },
): Promise<string> {
  const out = await new Deno.Command(chromium, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--hide-scrollbars",
      `--user-data-dir=${options.profile}`,
      "--virtual-time-budget=10000",
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 45_000),
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    const stderr = new TextDecoder().decode(out.stderr);
    throw new Error(`chromium exited with ${out.code}: ${stderr.slice(-2000)}`);
  }
  return stdout;
}
