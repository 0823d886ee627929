/** How busy the thread serving requests has been lately: the share of its time spent working, from 0 (idle) to 1 (never idle). */
export interface LoadGauge {
  busyShare(): number;
}
