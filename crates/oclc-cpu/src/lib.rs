//! The embedded cpu device.
