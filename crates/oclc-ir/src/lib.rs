//! SSA IR with address-space-typed pointers.
