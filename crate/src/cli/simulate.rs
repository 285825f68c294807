pub fn run(_args: Vec<std::ffi::OsString>) -> i32 { 0 }
