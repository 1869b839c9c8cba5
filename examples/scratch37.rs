fn main() {
    for s in std::env::args().skip(1) {
        let b = std::fs::read(&s).unwrap();
        let g = hexrune::detect::legacy::guess(&b);
        println!(
            "{s}: {:?} words={}",
            g,
            hexrune::detect::legacy::one_script_words(&b, g.encoding)
        );
    }
}
