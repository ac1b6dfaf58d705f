/**
 * The report's browser libraries, chart.js (UMD build) and three.js (ES module build, minified),
 * read from the npm packages that Deno installs into `node_modules/` ("nodeModulesDir": "auto"),
 * with their versions, and the CDN addresses of the same versions for `--cdn` reports.
 *
 * The side-effect imports below make Deno install both packages on first use (a fresh clone needs
 * nothing but `deno task …`); `import.meta.resolve` then gives each package's entry file, from
 * which the package folder is found. Subpaths are not resolved directly because both packages'
 * `exports` maps hide their browser builds.
 *
 * @module
 */
// Inline specifiers keep the report working without import-map entries; with "chart.js" and
// "three" mapped in deno.json these can become bare specifiers (update the two constants too).
// deno-lint-ignore no-import-prefix
import "npm:chart.js@^4.6.1";
// deno-lint-ignore no-import-prefix
import "npm:three@^0.180.0";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The specifier chart.js is imported by (must equal the import above). */
const CHART_JS = "npm:chart.js@^4.6.1";
/** The specifier three is imported by (must equal the import above). */
const THREE = "npm:three@^0.180.0";

/** Source text and version of the browser libraries, and their CDN addresses. */
export interface VendorLibraries {
  chartJs: {
    version: string;
    /** `dist/chart.umd.min.js` (defines the global `Chart`). */
    umd: string;
    cdnUrl: string;
  };
  three: {
    version: string;
    /** `build/three.core.min.js`. */
    core: string;
    /** `build/three.module.min.js` (imports `./three.core.min.js`). */
    module: string;
    /** The specifier by which `module` imports `core`. */
    coreSpecifier: string;
    cdnUrl: string;
  };
}

/** The folder of an installed npm package, found upwards from its resolved entry file. */
function packageDir(specifier: string, name: string): string {
  let url: string;
  try {
    url = import.meta.resolve(specifier);
  } catch (e) {
    throw new Error(
      `cannot resolve ${specifier} (${
        (e as Error).message
      }); run with "nodeModulesDir": "auto" in deno.json so Deno installs npm packages`,
    );
  }
  if (!url.startsWith("file:")) {
    throw new Error(
      `${specifier} resolved to ${url}, not a file; set "nodeModulesDir": "auto" in deno.json`,
    );
  }
  let dir = dirname(fileURLToPath(url));
  for (;;) {
    try {
      const pkg = JSON.parse(Deno.readTextFileSync(join(dir, "package.json")));
      if (pkg.name === name) return dir;
    } catch {
      // no package.json here: keep going up
    }
    const up = dirname(dir);
    if (up === dir) {
      throw new Error(`package folder of ${name} not found above ${url}; reinstall node_modules`);
    }
    dir = up;
  }
}

/** Reads a file of a package, saying which package to reinstall when it is missing. */
function readPackageFile(dir: string, file: string, name: string): string {
  try {
    return Deno.readTextFileSync(join(dir, file));
  } catch (e) {
    throw new Error(
      `cannot read ${file} of npm package ${name} in ${dir} (${
        (e as Error).message
      }); delete node_modules/ and run again so Deno reinstalls it`,
    );
  }
}

let cached: VendorLibraries | undefined;

/** Loads the libraries' text and versions (read once per process). */
export function vendorLibraries(): VendorLibraries {
  if (cached) return cached;
  const chartDir = packageDir(CHART_JS, "chart.js");
  const threeDir = packageDir(THREE, "three");
  const version = (dir: string, name: string) =>
    JSON.parse(readPackageFile(dir, "package.json", name)).version as string;
  const chartVersion = version(chartDir, "chart.js");
  const threeVersion = version(threeDir, "three");
  const coreSpecifier = "./three.core.min.js";
  const module = readPackageFile(threeDir, "build/three.module.min.js", "three");
  if (!module.includes(`"${coreSpecifier}"`)) {
    throw new Error(
      `three ${threeVersion}: build/three.module.min.js does not import "${coreSpecifier}"; ` +
        `the report needs a three release with build/three.core.min.js (0.172–0.180)`,
    );
  }
  cached = {
    chartJs: {
      version: chartVersion,
      umd: readPackageFile(chartDir, "dist/chart.umd.min.js", "chart.js"),
      cdnUrl: `https://cdn.jsdelivr.net/npm/chart.js@${chartVersion}/dist/chart.umd.min.js`,
    },
    three: {
      version: threeVersion,
      core: readPackageFile(threeDir, "build/three.core.min.js", "three"),
      module,
      coreSpecifier,
      cdnUrl: `https://esm.sh/three@${threeVersion}`,
    },
  };
  return cached;
}
