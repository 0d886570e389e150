//! IR to PTX text, and the cuda device.
