/** Time, as the application sees it: the only source of "now". */
export interface Clock {
  nowMs(): number;
}
