/**
 * The y axis of a chart of counts, or of readings that are never negative: whole-number steps
 * of 1, 2 or 5 times a power of ten, and a top that is a step at or above the largest value,
 * so the axis always labels a number at least as high as its tallest bar (a bar of 9 under an
 * axis labelled 0 and 5 reads as 5).
 */
export interface CountScale {
  /** The top of the axis: a multiple of `step`, at least the data's maximum (and at least 1). */
  readonly max: number;
  readonly step: number;
  /** Every labelled value, from 0 to `max`. */
  readonly ticks: readonly number[];
}

/** At most this many steps from 0 to the top: room for the labels in a chart 160–200 px high. */
const MOST_STEPS = 5;

export function countScale(dataMax: number, mostSteps = MOST_STEPS): CountScale {
  const top = Number.isFinite(dataMax) && dataMax > 1 ? Math.ceil(dataMax) : 1;
  let step = 1;
  for (let power = 1; ; power *= 10) {
    const found = [1, 2, 5].map((m) => m * power).find((s) => Math.ceil(top / s) <= mostSteps);
    if (found !== undefined) {
      step = found;
      break;
    }
  }
  const max = Math.ceil(top / step) * step;
  return { max, step, ticks: Array.from({ length: max / step + 1 }, (_, i) => i * step) };
}
