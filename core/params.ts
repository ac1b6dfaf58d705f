/**
 * Parameter schemas of the plug-ins (systems and collision handlers): each declares its numeric
 * parameters once, with ranges and a description; a scene supplies values per plug-in id
 * (`scene.handlers["merge-split"].alpha`, `scene.systems.sph.h`), the command line may override
 * them (`--param merge-split.alpha=0.5`), and {@link resolveParams} checks the result, naming the
 * bad field and the valid names. Pure data: core knows no plug-in.
 *
 * @module
 */
import { NUMBER_GRAMMAR, parseOptionNumber } from "./option_text.ts";

/** One numeric parameter of a plug-in. */
export interface ParamSpec {
  /** What it is, with its unit. */
  description: string;
  /** Inclusive lower bound. */
  min?: number;
  /** Inclusive upper bound (`Infinity` allowed when {@link ParamSpec.allowInfinity}). */
  max?: number;
  /** Strict lower bound. */
  gt?: number;
  /** Must be an integer (Infinity aside). */
  integer?: boolean;
  /** `Infinity` is a valid value (e.g. an unlimited meta-particle size). */
  allowInfinity?: boolean;
  /**
   * Named values: the parameter is an index into this list (0-based), given on the command line
   * by name (`merge-split.grouping=index-order`) or by index; records keep the index.
   */
  choices?: readonly string[];
  /** Used when neither the scene nor an override gives a value; required when absent. */
  default?: number;
}

/** The name of a value of a parameter with {@link ParamSpec.choices} (the number otherwise). */
export function paramValueText(spec: ParamSpec | undefined, value: number): string {
  return spec?.choices?.[value] ?? String(value);
}

/** The parameters of a plug-in, by name. */
export type ParamSchema = Readonly<Record<string, ParamSpec>>;

/** Resolved parameter values, by name. */
export type ParamValues = Readonly<Record<string, number>>;

/** An invalid parameter; `field` names it, e.g. `handlers["merge-split"].alpha`. */
export class ParamError extends RangeError {
  /** Path of the bad field. */
  readonly field: string;
  /** What is wrong and what is valid (the message without the field). */
  readonly detail: string;
  /** @param field path of the bad parameter; @param message what is wrong and what is valid */
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = "ParamError";
    this.field = field;
    this.detail = message;
  }
}

/** Checks one value against its spec; throws a {@link ParamError} naming `field`. */
export function checkParam(spec: ParamSpec, value: unknown, field: string): number {
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw new ParamError(field, `must be a number, got ${JSON.stringify(value)}`);
  }
  if (!Number.isFinite(value) && !(value === Infinity && spec.allowInfinity)) {
    throw new ParamError(field, `must be finite, got ${value}`);
  }
  if (spec.choices && !(Number.isInteger(value) && value >= 0 && value < spec.choices.length)) {
    throw new ParamError(
      field,
      `must be one of ${spec.choices.join(", ")} (or its index 0..${
        spec.choices.length - 1
      }), got ${value}`,
    );
  }
  if (spec.integer && Number.isFinite(value) && !Number.isInteger(value)) {
    throw new ParamError(field, `must be an integer, got ${value}`);
  }
  if (spec.gt !== undefined && !(value > spec.gt)) {
    throw new ParamError(field, `must be > ${spec.gt}, got ${value}`);
  }
  if (spec.min !== undefined && value < spec.min) {
    throw new ParamError(field, `must be >= ${spec.min}, got ${value}`);
  }
  if (spec.max !== undefined && value > spec.max) {
    throw new ParamError(field, `must be <= ${spec.max}, got ${value}`);
  }
  return value;
}

/** The names of a schema's parameters that have a default. */
export type DefaultedNames<S extends ParamSchema> = {
  [K in keyof S]: S[K] extends { default: number } ? K : never;
}[keyof S];

/**
 * The defaults of `schema`, by name (the parameters without one are left out), each checked against
 * its own spec: a default out of its range throws a {@link ParamError} naming `field.name`, e.g.
 * `MERGE_SPLIT_SCHEMA.alpha.default`; fix the schema.
 */
export function paramDefaults<S extends ParamSchema>(
  schema: S,
  field = "schema",
): { [K in DefaultedNames<S>]: number } {
  const out: Record<string, number> = {};
  for (const [name, spec] of Object.entries(schema)) {
    if (spec.default !== undefined) {
      out[name] = checkParam(spec, spec.default, `${field}.${name}.default`);
    }
  }
  return out as { [K in DefaultedNames<S>]: number };
}

/**
 * The values of a plug-in's parameters: the scene's, then `overrides` on top, then defaults;
 * every name must be in `schema` and every value in range. `field` prefixes error paths, e.g.
 * `handlers["merge-split"]`.
 */
export function resolveParams(
  schema: ParamSchema,
  options: {
    scene?: Readonly<Record<string, unknown>>;
    overrides?: Readonly<Record<string, number>>;
    field: string;
  },
): ParamValues {
  const names = Object.keys(schema);
  const out: Record<string, number> = {};
  for (const [source, values] of [["scene", options.scene], ["override", options.overrides]]) {
    for (const name of Object.keys((values ?? {}) as object)) {
      if (!Object.hasOwn(schema, name)) { // not `in`: `constructor` is no parameter
        throw new ParamError(
          `${options.field}.${name}`,
          `unknown ${source} parameter; valid names: ${names.join(", ") || "(none)"}`,
        );
      }
    }
  }
  for (const name of names) {
    const spec = schema[name];
    const field = `${options.field}.${name}`;
    const v = options.overrides?.[name] ?? options.scene?.[name] ?? spec.default;
    if (v === undefined) {
      throw new ParamError(field, `is required (${spec.description}); none given`);
    }
    out[name] = checkParam(spec, v, field);
  }
  return out;
}

/**
 * Parses command-line assignments `id.name=value` (e.g. `merge-split.alpha=0.5`, `nMax=inf`,
 * `merge-split.grouping=index-order`) into overrides per plug-in id: the value in the one number
 * grammar of the options (`parseOptionNumber`: decimal, `inf`, `-inf`; no hex), or a name, which
 * stands for its index in the parameter's {@link ParamSpec.choices}, looked up in `schemaOf(id)`.
 * Throws a {@link ParamError} for a malformed one.
 */
export function parseParamAssignments(
  assignments: readonly string[],
  schemaOf: (id: string) => ParamSchema | undefined = () => undefined,
): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const a of assignments) {
    const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)=(.+)$/.exec(a.trim());
    if (!m) {
      throw new ParamError(
        `--param ${a}`,
        "must read <handler id>.<name>=<number>, e.g. merge-split.alpha=0.5",
      );
    }
    const text = m[3].trim();
    const choices = schemaOf(m[1])?.[m[2]]?.choices;
    const named = choices?.indexOf(text) ?? -1;
    const value = named >= 0 ? named : parseOptionNumber(text);
    if (value === null) {
      const valid = choices ? `one of ${choices.join(", ")}` : NUMBER_GRAMMAR;
      throw new ParamError(`--param ${a}`, `value ${JSON.stringify(text)} is not ${valid}`);
    }
    const group = Object.hasOwn(out, m[1]) ? out[m[1]] : ownValue(out, m[1], {});
    ownValue(group, m[2], value);
  }
  return out;
}

/**
 * Sets `o[key] = value` as an own property and returns the value: a name such as `__proto__`
 * becomes a key like any other (and is then refused as unknown), not the object's prototype.
 */
function ownValue<T>(o: Record<string, T>, key: string, value: T): T {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}
