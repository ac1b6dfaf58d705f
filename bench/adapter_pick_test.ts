// run_tests: one implementation (the choice of adapter from a list; no device is taken)
import assert from "node:assert/strict";
import { type AdapterListing, pickAdapter } from "./adapters.ts";
import { UsageError } from "./cases/suite.ts";

/** Two adapters as a machine with Mesa lists them (descriptions holding "256 bits"). */
const LISTED: AdapterListing[] = [
  {
    index: 0,
    choice: "vulkan:default",
    backend: "vulkan",
    description: "llvmpipe (LLVM 15.0.6, 256 bits)",
    vendor: "Mesa",
    isFallbackAdapter: false,
  },
  {
    index: 1,
    choice: "gl:default",
    backend: "gl",
    description: "llvmpipe (LLVM 15.0.6, 256 bits)",
    vendor: "Mesa",
    isFallbackAdapter: false,
  },
];

Deno.test("--adapter: a number is an index only, never a part of a description", () => {
  assert.equal(pickAdapter("1", LISTED), "gl:default");
  assert.equal(pickAdapter("gl:1", LISTED), "gl:default");
  for (const v of ["256", "15", "2", "vulkan:1"]) {
    assert.throws(
      () => pickAdapter(v, LISTED),
      (e: unknown) => e instanceof UsageError && /matches no adapter/.test(e.message),
      v,
    );
  }
  assert.equal(pickAdapter("gl:LLVM", LISTED), "gl:default");
  assert.throws(() => pickAdapter("llvmpipe", LISTED), /matches several adapter/);
});
