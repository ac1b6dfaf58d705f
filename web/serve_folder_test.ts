import assert from "node:assert/strict";
import { serveFolder } from "./serve_folder.ts";

Deno.test("serveFolder: serves only inside its folder (encoded .., prefix-sharing siblings, links)", async () => {
  const parent = Deno.makeTempDirSync({ prefix: "mergesplit-serve-" });
  const out = `${parent}/out`;
  Deno.mkdirSync(out);
  Deno.mkdirSync(`${parent}/out-secret`);
  Deno.writeTextFileSync(`${out}/index.html`, "the page");
  Deno.writeTextFileSync(`${parent}/out-secret/secret.txt`, "SECRET");
  Deno.writeTextFileSync(`${parent}/secret.txt`, "SECRET");
  Deno.symlinkSync(`${parent}/out-secret/secret.txt`, `${out}/link.txt`);
  Deno.symlinkSync(`${parent}/out-secret`, `${out}/linked-dir`);
  Deno.symlinkSync(`${out}/index.html`, `${out}/inner.html`);
  let url = "";
  const server = serveFolder(out, { port: 0, onListen: (u) => (url = u) });
  try {
    while (!url) await new Promise((r) => setTimeout(r, 5));
    const get = async (path: string) => {
      const res = await fetch(new URL(path, url));
      return { status: res.status, body: await res.text() };
    };
    const raw = async (path: string) => {
      // fetch normalises dot segments; a raw request keeps them as sent
      const conn = await Deno.connect({ port: Number(new URL(url).port), hostname: "127.0.0.1" });
      await conn.write(
        new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      const chunks: Uint8Array[] = [];
      const buf = new Uint8Array(4096);
      for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
        chunks.push(buf.slice(0, n));
      }
      conn.close();
      const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
      return { status: Number(text.split(" ")[1]), body: text.split("\r\n\r\n").slice(1).join("") };
    };
    assert.deepEqual(await get("/"), { status: 200, body: "the page" });
    assert.deepEqual(await get("/inner.html"), { status: 200, body: "the page" }, "a link inside");
    for (
      const path of [
        "/..%2Fout-secret%2Fsecret.txt", // the sibling whose name starts with the folder's
        "/%2e%2e%2fout-secret%2fsecret.txt",
        "/..%2Fsecret.txt",
        "/../out-secret/secret.txt",
        "/link.txt",
        "/linked-dir/secret.txt",
        "/%E0%A4%A",
      ]
    ) {
      const r = await raw(path);
      // 403, or 404 where the URL parser already took `..` off the path
      assert.ok([403, 404].includes(r.status), `${path}: ${r.status} ${r.body}`);
      assert.ok(!r.body.includes("SECRET"), path);
    }
    assert.equal((await get("/missing.txt")).status, 404);
  } finally {
    await server.shutdown();
    Deno.removeSync(parent, { recursive: true });
  }
});

Deno.test("serveFolder: PUT, DELETE, TRACE and OPTIONS are 405 with Allow: GET, HEAD", async () => {
  const out = Deno.makeTempDirSync({ prefix: "mergesplit-serve-" });
  Deno.writeTextFileSync(`${out}/index.html`, "the page");
  let url = "";
  const server = serveFolder(out, { port: 0, onListen: (u) => (url = u) });
  try {
    while (!url) await new Promise((r) => setTimeout(r, 5));
    for (const method of ["PUT", "DELETE", "TRACE", "OPTIONS", "PATCH"]) {
      // fetch refuses to send TRACE: a raw request
      const conn = await Deno.connect({ port: Number(new URL(url).port), hostname: "127.0.0.1" });
      await conn.write(new TextEncoder().encode(
        `${method} /index.html HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      ));
      const reply = new TextDecoder().decode(await readAll(conn));
      assert.match(reply, /^HTTP\/1\.1 405 /, method);
      assert.match(reply, /\r\nallow: GET, HEAD\r\n/i, method);
      assert.ok(!reply.includes("the page"), `${method} does not answer the file`);
    }
    assert.equal(Deno.readTextFileSync(`${out}/index.html`), "the page", "nothing changed");
    const head = await fetch(new URL("index.html", url), { method: "HEAD" });
    await head.body?.cancel();
    assert.equal(head.status, 200);
    const get = await fetch(new URL("index.html", url));
    assert.equal(await get.text(), "the page");
  } finally {
    await server.shutdown();
    Deno.removeSync(out, { recursive: true });
  }
});

/** Every byte `conn` sends until it closes. */
async function readAll(conn: Deno.Conn): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(4096);
  for (let n; (n = await conn.read(buf)) !== null;) chunks.push(buf.slice(0, n));
  conn.close();
  const all = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
  chunks.reduce((at, c) => (all.set(c, at), at + c.length), 0);
  return all;
}
