//! Command queues and events. Each queue has a worker thread that runs its commands in the
//! order they were enqueued (out-of-order queues too: in order is a valid order), each once
//! the events it waits for are complete. A command that fails ends its event with a negative
//! status; the queue goes on with the next command.

use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex};

use opencl_sys::*;

use crate::context::Context;
use crate::ffi::EventCallback;
use crate::handle::{self, ClObject, Kind, Obj, Ref};
use crate::platform::{Device, now_ns};

pub struct Queue {
    pub ctx: Ref<Context>,
    pub device: Ref<Device>,
    pub props: cl_command_queue_properties,
    /// CL_QUEUE_PROPERTIES_ARRAY as given (empty for clCreateCommandQueue).
    pub props_array: Vec<u64>,
    tx: Mutex<Sender<Command>>,
    /// The last command's event, while it lives (a pending command holds its event), for
    /// clFinish; weak, so that a released, finished event is gone and its handle invalid.
    last: Mutex<std::sync::Weak<Obj<Event>>>,
}

impl ClObject for Queue {
    const KIND: Kind = Kind::Queue;
}

/// What a command does when it runs: Ok, or the negative status its event ends with.
pub type Work = Box<dyn FnOnce() -> Result<(), cl_int> + Send>;

struct Command {
    event: Ref<Event>,
    wait: Vec<Ref<Event>>,
    work: Work,
}

impl Queue {
    pub fn new(
        ctx: Ref<Context>,
        device: Ref<Device>,
        props: cl_command_queue_properties,
        props_array: Vec<u64>,
    ) -> Result<Queue, cl_int> {
        let (tx, rx) = channel::<Command>();
        std::thread::Builder::new()
            .name("oclc-queue".into())
            .spawn(move || {
                for cmd in rx {
                    run(cmd);
                }
            })
            .map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
        Ok(Queue {
            ctx,
            device,
            props,
            props_array,
            tx: Mutex::new(tx),
            last: Mutex::new(std::sync::Weak::new()),
        })
    }

    pub fn profiling(&self) -> bool {
        self.props & CL_QUEUE_PROFILING_ENABLE != 0
    }

    /// Waits until every command enqueued so far has finished (clFinish).
    pub fn finish(&self) {
        let last = self
            .last
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .upgrade();
        if let Some(e) = last {
            e.wait();
        }
    }
}

impl Obj<Queue> {
    /// Enqueues `work` after `wait`; returns its event.
    pub fn enqueue(
        self: &Arc<Self>,
        command_type: cl_command_type,
        wait: Vec<Ref<Event>>,
        work: Work,
    ) -> Result<Ref<Event>, cl_int> {
        let event = handle::new(Event::new(
            self.ctx.clone(),
            Some(self.clone()),
            command_type,
        ));
        let cmd = Command {
            event: event.clone(),
            wait,
            work,
        };
        event.set_status(CL_SUBMITTED);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        self.tx
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(cmd)
            .map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
        *last = Arc::downgrade(&event);
        Ok(event)
    }
}

fn run(cmd: Command) {
    let mut failed = false;
    for e in &cmd.wait {
        if e.wait() < 0 {
            failed = true;
        }
    }
    if failed {
        cmd.event
            .set_status(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        return;
    }
    cmd.event.set_status(CL_RUNNING);
    let status = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(cmd.work)) {
        Ok(Ok(())) => CL_COMPLETE,
        Ok(Err(code)) => code.min(-1),
        Err(_) => CL_OUT_OF_HOST_MEMORY,
    };
    cmd.event.set_status(status);
}

/// An event: a command's, or a user event.
pub struct Event {
    pub ctx: Ref<Context>,
    pub queue: Option<Ref<Queue>>,
    pub command_type: cl_command_type,
    state: Mutex<EventState>,
    cv: Condvar,
}

impl ClObject for Event {
    const KIND: Kind = Kind::Event;
}

struct EventState {
    status: cl_int,
    callbacks: Vec<(cl_int, EventCallback)>,
    /// Profiling times: queued, submitted, started, ended.
    times: [u64; 4],
    /// The thread calling the completion callbacks: waiters on other threads wait for them
    /// too, so that a callback has run when clWaitForEvents or clFinish returns.
    notifier: Option<std::thread::ThreadId>,
}

impl Event {
    pub fn new(
        ctx: Ref<Context>,
        queue: Option<Ref<Queue>>,
        command_type: cl_command_type,
    ) -> Event {
        let status = if queue.is_some() {
            CL_QUEUED
        } else {
            CL_SUBMITTED
        };
        let t = now_ns();
        Event {
            ctx,
            queue,
            command_type,
            state: Mutex::new(EventState {
                status,
                callbacks: Vec::new(),
                times: [t, t, t, t],
                notifier: None,
            }),
            cv: Condvar::new(),
        }
    }

    pub fn status(&self) -> cl_int {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).status
    }

    /// Whether the event has ended (complete or failed).
    pub fn done(&self) -> bool {
        self.status() <= CL_COMPLETE
    }

    /// Waits until the event has ended; returns its final status.
    pub fn wait(&self) -> cl_int {
        let me = std::thread::current().id();
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while st.status > CL_COMPLETE || st.notifier.is_some_and(|t| t != me) {
            st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        st.status
    }

    /// Profiling times: queued, submitted, started, ended.
    pub fn times(&self) -> [u64; 4] {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).times
    }
}

impl Obj<Event> {
    /// Moves the event to `status` (lower than its current one) and calls the callbacks
    /// that this reaches, outside the lock.
    pub fn set_status(self: &Arc<Self>, status: cl_int) {
        let now = now_ns();
        let due = {
            let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if st.status <= CL_COMPLETE || status >= st.status {
                return;
            }
            st.status = status;
            match status {
                CL_SUBMITTED => st.times[1] = now,
                CL_RUNNING => st.times[2] = now,
                _ => {
                    // A command that never ran started when it ended.
                    if st.times[2] < st.times[1] {
                        st.times[2] = now;
                    }
                    st.times[3] = now;
                }
            }
            let reached = status.max(CL_COMPLETE);
            let (due, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut st.callbacks)
                .into_iter()
                .partition(|(on, _)| *on >= reached);
            st.callbacks = keep;
            if status <= CL_COMPLETE {
                st.notifier = Some(std::thread::current().id());
            }
            due
        };
        let h = handle::handle(self) as usize;
        for (on, cb) in due {
            cb.call(h, if status < 0 { status } else { on });
        }
        if status <= CL_COMPLETE {
            self.state
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .notifier = None;
            self.cv.notify_all();
        }
    }

    /// Registers a callback for `on` (CL_SUBMITTED, CL_RUNNING or CL_COMPLETE); called at
    /// once when the event is already there.
    pub fn add_callback(self: &Arc<Self>, on: cl_int, cb: EventCallback) {
        let now = {
            let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if st.status <= on {
                Some(st.status)
            } else {
                st.callbacks.push((on, cb));
                None
            }
        };
        if let Some(status) = now {
            cb.call(
                handle::handle(self) as usize,
                if status < 0 { status } else { on },
            );
        }
    }
}

/// Waits for `events`; CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when one failed.
pub fn wait_all(events: &[Ref<Event>]) -> Result<(), cl_int> {
    let mut ok = true;
    for e in events {
        ok &= e.wait() >= 0;
    }
    if ok {
        Ok(())
    } else {
        Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    }
}

/// Whether two queue references are the same queue.
pub fn same_queue(a: &Ref<Queue>, b: &Ref<Queue>) -> bool {
    Arc::ptr_eq(a, b)
}
