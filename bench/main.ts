/**
 * `deno task bench`: the bench runner's entry point.
 *
 * The runner (scene × handler matrix, protocol, statistics, result files, report) is not built
 * yet; until it is, this says so and exits with status 1 rather than pretending to measure.
 *
 * @module
 */
if (import.meta.main) {
  console.error(
    "mergesplit: the bench runner is not implemented yet (see the open issues: WebGPU engine, " +
      "bench runner, HTML report). Nothing was run. `deno task test` runs the test suite.",
  );
  Deno.exit(1);
}
