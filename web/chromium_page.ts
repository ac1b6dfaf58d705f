/**
 * Runs the built browser bench page in headless Chromium with WebGPU (SwiftShader where there is
 * no GPU) and returns what the page reports at the end of its run: the page is opened with
 * `run=1&post=/done`, serves from a local {@link serveFolder}, and POSTs `{ lines, claims, error }`
 * there (`web/app.ts`). Used by the browser test and `deno task web-check`.
 *
 * @module
 */
import { findChromium } from "../reports/page/chromium.ts";
import { serveFolder } from "./serve_folder.ts";

/** What the page reported: its records as `results.jsonl` lines, its claims, its error. */
export interface PageOutcome {
  lines: string[];
  claims: { id: string; status: string }[];
  error: string | null;
  /** Characters of the report the page rendered (with `report=1` in the query; else 0). */
  reportChars: number;
  /** Seconds from opening the page to its report. */
  seconds: number;
}

/** Flags of a headless Chromium that exposes WebGPU without a GPU. */
export const WEBGPU_CHROMIUM_FLAGS: readonly string[] = [
  "--headless=new",
  "--no-sandbox",
  "--enable-unsafe-webgpu",
  "--enable-unsafe-swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--enable-logging=stderr",
];

/**
 * Opens `folder`'s page with the URL parameters `query` (e.g. `suite=default&scale=tiny`) and
 * waits for its outcome. Throws when Chromium is missing, exits, or the page does not report
 * within `timeoutMs` (with the end of Chromium's log).
 */
export async function runPageInChromium(
  folder: string,
  options: { query: string; timeoutMs: number },
): Promise<PageOutcome> {
  const chromium = findChromium();
  if (!chromium) throw new Error("no Chromium (apt-get install -y chromium, or set $CHROMIUM)");
  let report!: (body: string) => void;
  const reported = new Promise<string>((resolve) => (report = resolve));
  let url = "";
  const server = serveFolder(folder, {
    port: 0,
    post: (path, body) => path === "/done" && report(body),
    onListen: (u) => (url = u),
  });
  const profile = await Deno.makeTempDir({ prefix: "mergesplit-chromium-" });
  const t0 = performance.now();
  const child = new Deno.Command(chromium, {
    args: [
      ...WEBGPU_CHROMIUM_FLAGS,
      `--user-data-dir=${profile}`,
      `${url}?${options.query}&run=1&post=/done`,
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log: string[] = [];
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const drain = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      log.push(...r.value.split("\n").filter((l) => l && !l.includes("dbus")));
      if (log.length > 400) log.splice(0, log.length - 200);
    }
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const body = await Promise.race([
      reported,
      child.status.then((s) => {
        throw new Error(`chromium exited with ${s.code} before the page reported`);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the page did not report within ${options.timeoutMs} ms`)),
          options.timeoutMs,
        );
      }),
    ]);
    const outcome = JSON.parse(body) as Omit<PageOutcome, "seconds">;
    return { ...outcome, seconds: (performance.now() - t0) / 1000 };
  } catch (e) {
    throw new Error(`${(e as Error).message}\nchromium log:\n${log.slice(-30).join("\n")}`);
  } finally {
    clearTimeout(timer);
    try {
      child.kill();
    } catch {
      // already gone
    }
    await child.status;
    await drain.catch(() => {});
    await server.shutdown();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}
