//! The one worker pool of the crate: tasks `0..n` shared out over scoped threads.
//!
//! [`run`] calls a task function for every index of `0..tasks` exactly once, on up to
//! `threads` workers. Each worker takes the next index from one shared counter (an
//! `AtomicUsize`, so a worker that drew quick tasks simply takes more) and keeps a state of
//! its own, made by `init`, which the task function updates and `run` gives back, one per
//! worker: a tally, a list of results tagged with their index, whatever the caller merges
//! afterwards without a lock. [`map`] is `run` for callers that want one value per task, in
//! index order; [`for_each`] for tasks that leave their results elsewhere.
//!
//! The numbers: at most `min(threads, tasks)` workers run (none for no task); with one,
//! the tasks run in order on the calling thread and no thread is spawned, so a small input
//! costs no thread start. With more, every worker is a spawned scoped thread and the
//! calling thread waits for them all. A panic in a task is raised again on the calling
//! thread (after every worker has stopped), with its own payload; the workers that did not
//! panic run the tasks left.
//!
//! It is used by the scan's block index ([`crate::scan::index`]), detection's search for
//! mojibake, the lints' walk of the blocks no scan hook walked and `check -r`'s files. It
//! knows nothing of what a task is, and names no other part of the crate.

use std::panic;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The number of cores this process may use (1 if it cannot be told).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Calls `task(&mut state, i)` for every `i` in `0..tasks`, exactly once, on up to
/// `threads` workers (at least one while there is a task), each with its own `state` made
/// by `init`; returns those states, one per worker that ran, in no promised order (none
/// for no task). Indices are handed out in increasing order, but run concurrently: a
/// worker's state sees its own indices in increasing order only.
pub fn run<S, I, F>(tasks: usize, threads: usize, init: I, task: F) -> Vec<S>
where
    S: Send,
    I: Fn() -> S + Sync,
    F: Fn(&mut S, usize) + Sync,
{
    let workers = threads.clamp(1, tasks.max(1)).min(tasks);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut state = init();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= tasks {
                break;
            }
            task(&mut state, i);
        }
        state
    };
    match workers {
        0 => Vec::new(),
        1 => vec![work()],
        _ => std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers).map(|_| scope.spawn(work)).collect();
            // Every worker is joined before a panic is raised again, so none is left
            // running and the first panic's payload is the one the caller sees.
            let joined: Vec<_> = handles.into_iter().map(|h| h.join()).collect();
            joined
                .into_iter()
                .map(|r| r.unwrap_or_else(|payload| panic::resume_unwind(payload)))
                .collect()
        }),
    }
}

/// `value(i)` for every `i` in `0..tasks`, computed on up to `threads` workers as [`run`]
/// does, in index order.
pub fn map<T, F>(tasks: usize, threads: usize, value: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    let parts = run(tasks, threads, Vec::new, |done: &mut Vec<(usize, T)>, i| {
        done.push((i, value(i)));
    });
    let mut slots: Vec<Option<T>> = std::iter::repeat_with(|| None).take(tasks).collect();
    for (i, v) in parts.into_iter().flatten() {
        slots[i] = Some(v);
    }
    slots
        .into_iter()
        .map(|v| v.expect("the pool runs every task once"))
        .collect()
}

/// Calls `task(i)` for every `i` in `0..tasks` on up to `threads` workers, as [`run`] does.
pub fn for_each<F>(tasks: usize, threads: usize, task: F)
where
    F: Fn(usize) + Sync,
{
    run(tasks, threads, || (), |_, i| task(i));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::atomic::AtomicU32;
    use std::sync::Mutex;
    use std::thread::ThreadId;

    #[test]
    fn every_index_runs_exactly_once() {
        for threads in 1..=4 {
            for tasks in 0..=100 {
                let runs: Vec<AtomicU32> = (0..tasks).map(|_| AtomicU32::new(0)).collect();
                for_each(tasks, threads, |i| {
                    runs[i].fetch_add(1, Ordering::Relaxed);
                });
                let counts: Vec<u32> = runs.iter().map(|r| r.load(Ordering::Relaxed)).collect();
                assert_eq!(counts, vec![1; tasks], "{threads} threads, {tasks} tasks");
            }
        }
    }

    #[test]
    fn the_workers_states_hold_every_index_once() {
        for threads in 1..=4 {
            for tasks in 0..=100 {
                let states = run(tasks, threads, Vec::new, |seen: &mut Vec<usize>, i| {
                    seen.push(i);
                });
                assert_eq!(states.len(), threads.min(tasks), "one state a worker");
                for seen in &states {
                    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
                }
                let mut all: Vec<usize> = states.into_iter().flatten().collect();
                all.sort_unstable();
                assert_eq!(all, (0..tasks).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn map_gives_values_in_index_order() {
        for threads in 1..=4 {
            for tasks in 0..=100 {
                let values = map(tasks, threads, |i| {
                    // Early tasks take longer, so later ones finish first.
                    if i < 3 {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    i * i + 7
                });
                let expected: Vec<usize> = (0..tasks).map(|i| i * i + 7).collect();
                assert_eq!(values, expected, "{threads} threads, {tasks} tasks");
            }
        }
    }

    #[test]
    fn one_worker_runs_on_the_calling_thread_in_order() {
        let me = std::thread::current().id();
        let order = Mutex::new(Vec::new());
        for_each(10, 1, |i| {
            assert_eq!(std::thread::current().id(), me);
            order.lock().unwrap().push(i);
        });
        assert_eq!(*order.lock().unwrap(), (0..10).collect::<Vec<_>>());
        // More threads than tasks: still one task, still no thread.
        for_each(1, 4, |_| assert_eq!(std::thread::current().id(), me));
    }

    #[test]
    fn several_workers_run_on_spawned_threads() {
        let me = std::thread::current().id();
        let ids: Mutex<HashSet<ThreadId>> = Mutex::new(HashSet::new());
        // Each task waits until it has seen another worker, so both must run.
        let started = AtomicU32::new(0);
        for_each(2, 2, |_| {
            ids.lock().unwrap().insert(std::thread::current().id());
            started.fetch_add(1, Ordering::SeqCst);
            while started.load(Ordering::SeqCst) < 2 {
                std::thread::yield_now();
            }
        });
        let ids = ids.into_inner().unwrap();
        assert_eq!(ids.len(), 2);
        assert!(!ids.contains(&me));
    }

    #[test]
    fn no_task_makes_no_state() {
        let made = AtomicU32::new(0);
        let states = run(0, 4, || made.fetch_add(1, Ordering::Relaxed), |_, _| {});
        assert!(states.is_empty());
        assert_eq!(made.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_panic_in_a_task_reaches_the_caller() {
        for threads in 1..=4 {
            let ran = AtomicU32::new(0);
            let caught = panic::catch_unwind(panic::AssertUnwindSafe(|| {
                for_each(20, threads, |i| {
                    ran.fetch_add(1, Ordering::Relaxed);
                    if i == 13 {
                        panic!("task thirteen");
                    }
                })
            }));
            let payload = caught.expect_err("the panic propagates");
            assert_eq!(payload.downcast_ref::<&str>(), Some(&"task thirteen"));
            // The others went on: with one worker, the tasks after 13 were never drawn.
            let ran = ran.load(Ordering::Relaxed);
            if threads == 1 {
                assert_eq!(ran, 14);
            } else {
                assert_eq!(ran, 20, "{threads} threads");
            }
        }
    }

    #[test]
    fn a_panic_in_map_reaches_the_caller() {
        let caught = panic::catch_unwind(|| {
            map(8, 3, |i| {
                assert_ne!(i, 5, "five");
                i
            })
        });
        assert!(caught.is_err());
    }
}
