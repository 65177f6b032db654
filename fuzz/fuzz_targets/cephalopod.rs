//! Cephalopod's position and move notation and its legal moves, under random play: see
//! `stolik_fuzz::check_engine` for the input layout and the properties.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| stolik_fuzz::check_engine::<catalog::Cephalopod>(data));
