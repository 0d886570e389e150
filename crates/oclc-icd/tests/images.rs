//! Images and samplers through the platform (`tests/c/image.c`, calling the library's
//! dispatch table): device limits and formats, an image written from host memory with its
//! own row pitch, read by a kernel through a CLK_ADDRESS_CLAMP sampler (the border color past
//! the edge) and written to a float image, read back, mapped, filled and copied to and from
//! buffers and images; sampler queries and reference counts; the specification's error codes;
//! and a kernel reading outside an image without a sampler, reported with its source line.
//! Needs a C compiler and the OpenCL headers: without them the test says what is missing and
//! skips, or fails when OCLC_REQUIRE_CONFORMANCE=1.

mod common;

use common::{compile, library};
use std::process::Command;

#[test]
fn images_and_samplers_through_the_api() {
    let Some(bin) = compile("image") else {
        return;
    };
    let out = Command::new(&bin)
        .arg(library())
        .output()
        .expect("image test program runs");
    let _ = std::fs::remove_file(&bin);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "support 1 max2d 16384 samplers 16\n\
         formats many rgba8 1\n\
         create a 0\n\
         create b 0\n\
         info pitch 20 elem 4 width 4 2d 1\n\
         sampler 0 clamp 1\n\
         launch 0\n\
         read 0\n \
         (10 0 1 255) (20 0 2 255) (30 0 3 255) (0 0 0 0)\n \
         (10 10 2 255) (20 10 3 255) (30 10 4 255) (0 0 0 0)\n \
         (10 20 3 255) (20 20 4 255) (30 20 5 255) (0 0 0 0)\n\
         map 0 pitch 20: 10 20 | 20 20\n\
         fill 0 copy 0: 0.25 0.5 1 2\n\
         to image 0 copy image 0: 0.25 2\n\
         rgb float 1\n\
         bad format 1\n\
         width 0 1\n\
         too wide 1\n\
         host ptr without flag 1\n\
         no desc 1\n\
         read buffer of image 1\n\
         read image of buffer 1\n\
         region outside 1\n\
         format mismatch 1\n\
         buffer for image 1\n\
         null sampler 1\n\
         image for buffer 1\n\
         bad sampler 1\n\
         retain 0 release 0 refs 1\n\
         released 1\n\
         oob status negative 1\n"
    );
    assert!(
        stderr.contains(
            "<source>:7:14: error: `read_imageui` at pixel (2, 0, 0) outside the 2 x 1 x 1 \
             image (undefined without a clamping sampler)"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("global id (2, 0, 0)"), "{stderr}");
}
