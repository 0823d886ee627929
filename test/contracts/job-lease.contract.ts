import test from 'ava';
import type { JobLease } from '../../src/application/ports/job-lease.js';
import type { DeclareTest } from '../support/databases.js';

/** The JobLease contract; `make` returns leases with none taken. */
export function jobLeaseContract(name: string, make: () => Promise<JobLease>, testFn: DeclareTest = test): void {
  testFn(`${name}: a job's lease is held by one instance at a time, renewed by its holder, and free once expired`, async (t) => {
    const lease = await make();
    t.true(await lease.acquire('fanout', 'a', 1_000, 500));
    t.false(await lease.acquire('fanout', 'b', 1_200, 500));
    t.true(await lease.acquire('fanout', 'a', 1_400, 500), 'the holder renews');
    t.false(await lease.acquire('fanout', 'b', 1_900, 500), 'held until its end, inclusive');
    t.true(await lease.acquire('fanout', 'b', 1_901, 500));
    t.false(await lease.acquire('fanout', 'a', 1_950, 500));
  });

  testFn(`${name}: a release frees the lease, but only the holder's release`, async (t) => {
    const lease = await make();
    t.true(await lease.acquire('sweep', 'a', 1_000, 60_000));
    await lease.release('sweep', 'b');
    t.false(await lease.acquire('sweep', 'b', 1_100, 60_000));
    await lease.release('sweep', 'a');
    t.true(await lease.acquire('sweep', 'b', 1_200, 60_000));
    t.false(await lease.acquire('sweep', 'a', 1_300, 60_000));
    await lease.release('never-taken', 'a');
  });

  testFn(`${name}: each job has a lease of its own`, async (t) => {
    const lease = await make();
    t.true(await lease.acquire('fanout', 'a', 1_000, 500));
    t.true(await lease.acquire('retention', 'b', 1_000, 500));
    t.false(await lease.acquire('retention', 'a', 1_100, 500));
    await lease.release('fanout', 'a');
    t.false(await lease.acquire('retention', 'a', 1_200, 500));
  });

  testFn(`${name}: of several instances acquiring a new job's lease at once, exactly one gets it`, async (t) => {
    const lease = await make();
    const got = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((holder) => lease.acquire('offline-sweep', holder, 1_000, 500)));
    t.is(got.filter(Boolean).length, 1);
  });
}
