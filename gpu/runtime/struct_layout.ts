/**
 * WGSL struct layouts defined once in TypeScript, with the WGSL side checked against them.
 *
 * A {@link StructLayout} computes member offsets by the WGSL alignment rules (host-shareable,
 * uniform and storage), packs values into an `ArrayBuffer`, and {@link checkWgslStruct} verifies
 * that the `struct` declared in a `.wgsl` file has the same members, in the same order, with the
 * same types. Every pipeline owner keeps its uniform structs here and tests the match.
 *
 * @module
 */

/** Scalar and vector member types supported in shared structs. */
export type WgslType = "f32" | "u32" | "i32" | "vec2f" | "vec3f" | "vec4f" | "vec2u" | "vec4u";

const TYPE_INFO: Record<WgslType, { size: number; align: number; kind: "f" | "u" | "i" }> = {
  f32: { size: 4, align: 4, kind: "f" },
  u32: { size: 4, align: 4, kind: "u" },
  i32: { size: 4, align: 4, kind: "i" },
  vec2f: { size: 8, align: 8, kind: "f" },
  vec3f: { size: 12, align: 16, kind: "f" },
  vec4f: { size: 16, align: 16, kind: "f" },
  vec2u: { size: 8, align: 8, kind: "u" },
  vec4u: { size: 16, align: 16, kind: "u" },
};

/** Aliases accepted when reading WGSL declarations. */
const WGSL_ALIASES: Record<string, WgslType> = {
  "vec2<f32>": "vec2f",
  "vec3<f32>": "vec3f",
  "vec4<f32>": "vec4f",
  "vec2<u32>": "vec2u",
  "vec4<u32>": "vec4u",
};

/** One member of a struct layout. */
export interface StructMember {
  name: string;
  type: WgslType;
  offset: number;
}

/** A struct's members with offsets, its size, and a packer. */
export interface StructLayout {
  name: string;
  members: readonly StructMember[];
  /** Size in bytes, rounded up to the struct alignment. */
  size: number;
  /** Packs values (by member name) into a new buffer of `size` bytes; missing members throw. */
  pack(values: Readonly<Record<string, number | readonly number[]>>): ArrayBuffer;
}

/**
 * Defines a struct layout by the WGSL rules.
 *
 * @example
 * const Params = defineStruct("Params", [["count", "u32"], ["dt", "f32"], ["gravity", "vec3f"]]);
 */
export function defineStruct(
  name: string,
  fields: ReadonlyArray<readonly [string, WgslType]>,
): StructLayout {
  let offset = 0;
  let maxAlign = 4;
  const members: StructMember[] = [];
  for (const [field, type] of fields) {
    const info = TYPE_INFO[type];
    if (!info) {
      throw new TypeError(`defineStruct(${name}): member "${field}" has unknown type ${type}`);
    }
    offset = Math.ceil(offset / info.align) * info.align;
    members.push({ name: field, type, offset });
    offset += info.size;
    maxAlign = Math.max(maxAlign, info.align);
  }
  const size = Math.ceil(offset / maxAlign) * maxAlign;
  return {
    name,
    members,
    size,
    pack(values) {
      const buf = new ArrayBuffer(size);
      const dv = new DataView(buf);
      for (const m of members) {
        const v = values[m.name];
        if (v === undefined) {
          throw new TypeError(`${name}.pack: missing value for member "${m.name}" (${m.type})`);
        }
        const info = TYPE_INFO[m.type];
        const comps = Array.isArray(v) ? v : [v as number];
        const n = info.size / 4;
        if (comps.length !== n) {
          throw new RangeError(
            `${name}.pack: member "${m.name}" needs ${n} components, got ${comps.length}`,
          );
        }
        comps.forEach((c, k) => {
          const at = m.offset + 4 * k;
          if (info.kind === "f") dv.setFloat32(at, c, true);
          else if (info.kind === "u") dv.setUint32(at, c >>> 0, true);
          else dv.setInt32(at, c | 0, true);
        });
      }
      return buf;
    },
  };
}

/**
 * Checks that `struct <layout.name> { ... }` in WGSL source matches the layout (names, order,
 * types). Throws an `Error` describing the first mismatch.
 */
export function checkWgslStruct(wgsl: string, layout: StructLayout): void {
  const re = new RegExp(`struct\\s+${layout.name}\\s*\\{([^}]*)\\}`);
  const match = wgsl.match(re);
  if (!match) throw new Error(`WGSL has no struct ${layout.name}`);
  const body = match[1].replace(/\/\/[^\n]*/g, "");
  const decls = body.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (decls.length !== layout.members.length) {
    throw new Error(
      `struct ${layout.name}: WGSL has ${decls.length} members, TypeScript layout has ${layout.members.length}`,
    );
  }
  decls.forEach((decl, k) => {
    const [rawName, rawType] = decl.split(":").map((s) => s.trim());
    const type = WGSL_ALIASES[rawType.replace(/\s+/g, "")] ?? rawType;
    const m = layout.members[k];
    if (rawName !== m.name || type !== m.type) {
      throw new Error(
        `struct ${layout.name} member ${k}: WGSL has ${rawName}: ${rawType}, TypeScript has ${m.name}: ${m.type}`,
      );
    }
  });
}
