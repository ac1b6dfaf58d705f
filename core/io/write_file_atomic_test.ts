import assert from "node:assert/strict";
import { tempPathFor, writeFileAtomic, writeTempFile } from "./write_file_atomic.ts";

const tempDir = () => Deno.makeTempDirSync({ prefix: "mergesplit-atomic-" });
const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

/** A writer that writes half of the bytes and then fails as a full disk does. */
const fullDisk = (path: string, bytes: Uint8Array) => {
  writeTempFile(path, bytes.subarray(0, bytes.length >> 1));
  throw new Error("No space left on device (os error 28)");
};

Deno.test("writeFileAtomic: writes text or bytes whole, replacing the file, no temporary left", () => {
  const dir = tempDir();
  try {
    writeFileAtomic(`${dir}/a.html`, "first");
    writeFileAtomic(`${dir}/a.html`, "sécond");
    assert.equal(Deno.readTextFileSync(`${dir}/a.html`), "sécond");
    writeFileAtomic(`${dir}/b.bin`, new Uint8Array([1, 2, 3]));
    assert.deepEqual([...Deno.readFileSync(`${dir}/b.bin`)], [1, 2, 3]);
    assert.deepEqual(names(dir), ["a.html", "b.bin"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic: a write that fails leaves the previous file and no temporary", () => {
  const dir = tempDir();
  try {
    Deno.writeTextFileSync(`${dir}/report.html`, "the earlier good report");
    assert.throws(
      () => writeFileAtomic(`${dir}/report.html`, "x".repeat(4096), { writeTemp: fullDisk }),
      /No space left on device/,
    );
    assert.equal(Deno.readTextFileSync(`${dir}/report.html`), "the earlier good report");
    assert.deepEqual(names(dir), ["report.html"]);
    assert.throws(() => writeFileAtomic(`${dir}/new.html`, "x", { writeTemp: fullDisk }));
    assert.deepEqual(names(dir), ["report.html"], "a new file is not created half written");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic: a folder in the way or a missing folder throws, nothing left", () => {
  const dir = tempDir();
  try {
    Deno.mkdirSync(`${dir}/taken`);
    assert.throws(() => writeFileAtomic(`${dir}/taken`, "x"));
    assert.ok(Deno.statSync(`${dir}/taken`).isDirectory);
    assert.throws(() => writeFileAtomic(`${dir}/missing/a.txt`, "x"), Deno.errors.NotFound);
    assert.deepEqual(names(dir), ["taken"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic: a file size limit (ulimit -f) leaves the previous file whole", async () => {
  const dir = tempDir();
  try {
    Deno.writeTextFileSync(`${dir}/r.html`, "good");
    const script = `import { writeFileAtomic } from "${
      new URL("./write_file_atomic.ts", import.meta.url).href
    }"; writeFileAtomic("${dir}/r.html", "y".repeat(200000));`;
    const out = await new Deno.Command("bash", {
      args: ["-c", `trap '' XFSZ; ulimit -f 16; exec "$0" eval "$1"`, Deno.execPath(), script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.notEqual(out.code, 0, "the failed write is an error");
    assert.match(new TextDecoder().decode(out.stderr), /File too large/);
    assert.equal(Deno.readTextFileSync(`${dir}/r.html`), "good");
    assert.deepEqual(names(dir), ["r.html"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("tempPathFor: a hidden name in the target's folder, different each call", () => {
  const a = tempPathFor("/x/y/report.html");
  assert.match(a, /^\/x\/y\/\.report\.html\.\d+\.[0-9a-f]{8}\.tmp$/);
  assert.notEqual(a, tempPathFor("/x/y/report.html"));
});
