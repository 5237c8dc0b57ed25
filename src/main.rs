fn main() -> std::process::ExitCode {
    git_standards::cli::main()
}
