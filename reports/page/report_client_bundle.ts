/**
 * `deno task report-client`: bundles the report page's client (`report_client.ts` and its modules
 * under `client/`, TypeScript) into `report_client.bundle.js`, one classic script (an IIFE for the
 * browser, by `deno bundle` as the browser bench's page is built), which report_page.ts inlines.
 * The bundle is committed, so a report needs no bundler; report_client_bundle_test.ts re-bundles
 * and fails when the committed file differs.
 *
 * @module
 */

/** The client's entry module. */
export const CLIENT_ENTRY = new URL("./report_client.ts", import.meta.url);
/** The committed bundle that report_page.ts inlines. */
export const CLIENT_BUNDLE = new URL("./report_client.bundle.js", import.meta.url);
/** The repository root: `deno bundle` runs there, so the paths it writes into comments are stable. */
const ROOT = new URL("../../", import.meta.url);

/**
 * Bundles the client into `out` (a file path). Throws with `deno bundle`'s output when bundling
 * fails.
 */
export async function bundleReportClient(out: string): Promise<void> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--format",
      "iife",
      "--config",
      new URL("deno.json", ROOT).pathname,
      "--output",
      out,
      CLIENT_ENTRY.pathname,
    ],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!result.success) {
    const text = new TextDecoder().decode(result.stderr) + new TextDecoder().decode(result.stdout);
    throw new Error(`deno bundle failed (exit ${result.code}):\n${text.slice(-4000)}`);
  }
}

if (import.meta.main) {
  await bundleReportClient(CLIENT_BUNDLE.pathname);
  console.log(`wrote ${CLIENT_BUNDLE.pathname}`);
}
