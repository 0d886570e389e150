fn main() {
    eprintln!("oclc: not yet built");
    std::process::exit(2);
}
