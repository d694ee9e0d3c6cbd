// swift-tools-version:6.0
import PackageDescription

/// heic2jpg: batch HEIF/HEIC → JPEG conversion.
///
/// C libraries come from Debian packages and are wrapped as system-library targets
/// (module map + pkg-config): libheif (container fallback and reference decoder),
/// libde265 (per-tile HEVC decoding), libjpeg-turbo (encoding), LittleCMS 2 (ICC
/// profiles for nclx-only sources). `CJPEGCodec` is the
/// one C target of our own: it exists because libjpeg reports errors through
/// `setjmp`/`longjmp`, which must never cross Swift frames.
let package = Package(
    name: "heic2jpg",
    products: [
        .executable(name: "heic2jpg", targets: ["heic2jpg"]),
        .library(name: "HEIC2JPGKit", targets: ["HEIC2JPGKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .systemLibrary(
            name: "CDe265",
            pkgConfig: "libde265",
            providers: [.apt(["libde265-dev"])]
        ),
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        .target(
            name: "CJPEGCodec",
            dependencies: ["CLibJPEG"]
        ),
        .target(
            name: "HEIC2JPGKit",
            dependencies: ["CHeif", "CDe265", "CLCMS2", "CJPEGCodec"]
        ),
        .executableTarget(
            name: "heic2jpg",
            dependencies: ["HEIC2JPGKit"]
        ),
        // libFuzzer target over the parsers of file bytes (Scripts/fuzz builds it with
        // -sanitize=fuzzer -D FUZZING); a normal build replays the files it is given.
        // CLibFuzzer only declares libFuzzer's driver entry; -sanitize=fuzzer links it.
        .systemLibrary(name: "CLibFuzzer"),
        .executableTarget(
            name: "heic2jpg-fuzz",
            dependencies: ["HEIC2JPGKit", "CLibFuzzer"]
        ),
        .testTarget(
            name: "HEIC2JPGKitTests",
            dependencies: ["HEIC2JPGKit", "CJPEGCodec"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["HEIC2JPGKit", "CHeif", "CJPEGCodec", "heic2jpg"]
        ),
    ]
)
