//! Run files (`oclc run job.toml`): parsing, validation, value specs, expectations.
