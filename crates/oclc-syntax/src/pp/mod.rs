//! The hand-written C preprocessor with OpenCL predefined macros.
