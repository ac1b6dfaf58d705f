// run_tests: one implementation (the arguments of deno task web, refused before anything is built)
import assert from "node:assert/strict";
import { checkOut, webMain } from "./build_page.ts";

/** {@link webMain} on `args` with its stderr and stdout captured. */
async function web(args: string[]): Promise<{ code: number; err: string[]; out: string[] }> {
  const err: string[] = [];
  const out: string[] = [];
  const { error, log } = console;
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  try {
    return { code: await webMain(args), err, out };
  } finally {
    Object.assign(console, { error, log });
  }
}

Deno.test("deno task web: a bad --out or a busy --port is one line, exit 2, nothing built", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-web-" });
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  try {
    const port = (listener.addr as Deno.NetAddr).port;
    Deno.writeTextFileSync(`${dir}/file`, "x");
    const cases: Array<[string[], string]> = [
      [
        ["--out", ""],
        "mergesplit web: --out is empty; give the folder to build into, e.g. --out web/dist",
      ],
      [
        ["--out", " "],
        "mergesplit web: --out is empty; give the folder to build into, e.g. --out web/dist",
      ],
      [
        ["--out", `${dir}/file`],
        `mergesplit web: --out ${dir}/file is a file, not a folder; give a folder to build into`,
      ],
      [
        ["--out", `${dir}/site`, "--serve", "--port", String(port)],
        `mergesplit web: --serve: port ${port} is in use; give another with --port (0: any free one)`,
      ],
      [["--port", "1e3"], "mergesplit web: --port must be an integer in 0..65535, got 1e3"],
    ];
    for (const [args, line] of cases) {
      const r = await web(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.deepEqual(r.err, [line], args.join(" "));
      assert.deepEqual(r.out, []);
    }
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["file"], "nothing built");
    const ambiguous = await web(["--port", "-1"]);
    assert.equal(ambiguous.code, 2);
    assert.equal(ambiguous.err.length, 1, "one line, as parseArgs's message is several");
    assert.match(
      ambiguous.err[0],
      /^mergesplit web: Option '--port' argument is ambiguous\. .*--help/,
    );
    const bad = await web(["--nope"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.err.length, 1);
    assert.match(bad.err[0], /^mergesplit web: Unknown option '--nope'.*; run with --help/);
  } finally {
    listener.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("deno task web never replaces files no build made: exit 2 naming them, nothing built", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-web-" });
  try {
    Deno.writeTextFileSync(`${dir}/index.html`, "my page");
    Deno.writeTextFileSync(`${dir}/app.js`, "my app");
    const r = await web(["--out", dir]);
    assert.equal(r.code, 2);
    assert.deepEqual(r.err, [
      `mergesplit web: --out ${dir} holds files no build of mergesplit made (app.js, index.html; ` +
      "no build.json of ours); give an empty or new folder, or one an earlier build wrote",
    ]);
    assert.equal(Deno.readTextFileSync(`${dir}/index.html`), "my page");
    assert.equal(Deno.readTextFileSync(`${dir}/app.js`), "my app");
    // a build.json that is not ours (no builtAt) does not make the folder ours
    Deno.writeTextFileSync(`${dir}/build.json`, '{"name": "my-site"}');
    assert.equal((await web(["--out", dir])).code, 2);
    // an earlier build's folder (build.json with builtAt) or an empty one is accepted
    Deno.writeTextFileSync(`${dir}/build.json`, '{"commit": null, "builtAt": "2026-01-01"}');
    checkOut(dir);
    Deno.mkdirSync(`${dir}/empty`);
    checkOut(`${dir}/empty`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("deno task web --out web (the sources) is refused before bundling: no stray app.js", async () => {
  const sources = new URL("./", import.meta.url).pathname;
  const r = await web(["--out", sources]);
  assert.equal(r.code, 2);
  assert.match(
    r.err[0],
    /holds files no build of mergesplit made \(app\.ts, .* more; no build\.json/,
  );
  assert.throws(() => Deno.statSync(`${sources}app.js`), Deno.errors.NotFound);
});
