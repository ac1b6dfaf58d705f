/**
 * Builds GPU objects under validation and out-of-memory error scopes, so that a WGSL, binding or
 * allocation error surfaces as an exception where the objects are created, naming the problem,
 * instead of as an uncaptured error later.
 *
 * @module
 */

/**
 * Runs `build` inside error scopes on `device`; on a thrown error or a GPU error calls
 * `cleanup` with what was built (if anything) and throws, with `what` in the message.
 */
export async function buildValidated<T>(
  device: GPUDevice,
  options: { what: string; build: () => T; cleanup: (built: T) => void },
): Promise<T> {
  device.pushErrorScope("validation");
  device.pushErrorScope("out-of-memory");
  let built: T | undefined;
  let failure: unknown;
  try {
    built = options.build();
  } catch (e) {
    failure = e;
  }
  const oom = await device.popErrorScope();
  const invalid = await device.popErrorScope();
  const gpuError = oom ?? invalid;
  if (failure !== undefined || gpuError) {
    if (built !== undefined) options.cleanup(built);
    if (failure !== undefined && !gpuError) throw failure;
    throw new Error(
      `GPU setup failed for ${options.what}: ${gpuError?.message ?? String(failure)}`,
    );
  }
  return built as T;
}
