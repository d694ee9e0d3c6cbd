// swift-tools-version:6.0
import PackageDescription

/// heic2jpg: batch HEIF/HEIC → JPEG conversion.
///
/// Targets are layered by link boundary, as swift-nio separates NIOCore from NIOPosix:
/// the parsers of untrusted bytes (`H2JSupport`, `H2JContainer`, `H2JJPEG`,
/// `H2JMetadata`) and the output planning both commands share (`H2JOutputPlan`) import
/// no C module, each C library is wrapped by one target of its
/// own (`H2JDe265`, `H2JAVCodec`, `H2JLibheif`, `H2JJPEGCodec`, `H2JColour`), and only the pipeline
/// and the executable see them all. The graph is acyclic by construction: a target can
/// use only what it depends on. ARCHITECTURE.md draws it.
///
/// C libraries come from Debian packages and are wrapped as system-library targets
/// (module map + pkg-config). `CJPEGCodec` is the one C target the product ships: it exists
/// because libjpeg reports errors through `setjmp`/`longjmp`, which must never cross
/// Swift frames.
let package = Package(
    name: "heic2jpg",
    products: [
        .executable(name: "heic2jpg", targets: ["heic2jpg"]),
    ],
    targets: [
        // C libraries.
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CDe265", pkgConfig: "libde265", providers: [.apt(["libde265-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        .target(name: "CJPEGCodec", dependencies: ["CLibJPEG"]),
        // Descriptor passing and the sandbox of the worker processes (CMSG_* macros Swift
        // cannot import; prctl, Landlock and the libseccomp allow list).
        .target(name: "CWorkerIPC", dependencies: ["CSeccomp"]),
        .target(name: "CMemoryFile"),
        // libavcodec's HEVC decoder, dlopened at run time (no FFmpeg headers or build
        // dependency): heic2jpg builds and runs where libavcodec is absent.
        .target(name: "CAVCodecShim", linkerSettings: [.linkedLibrary("dl")]),
        // The pattern that shows which blocks of a decoded picture were never written, and
        // the `memalign` that fills libde265's picture buffers with it.
        .target(name: "CUnwrittenBlocks"),
        // SIGPIPE as a byte on a pipe: libdispatch's signal sources never see it on Linux.
        .target(name: "CSignalPipe"),
        // statfs's file system type (not in Swift's Glibc), for a watch to tell NFS and SMB.
        .target(name: "CFileSystemType"),

        // Pure Swift layers: no C module.
        .target(name: "H2JSupport"),
        .target(name: "H2JContainer", dependencies: ["H2JSupport"]),
        .target(name: "H2JJPEG", dependencies: ["H2JSupport"]),
        .target(name: "H2JMetadata", dependencies: ["H2JSupport", "H2JJPEG"]),
        .target(name: "H2JTiles", dependencies: ["H2JSupport", "H2JContainer"]),
        // Which files a source's conversion writes and what they carry: what `convert`
        // runs and `inspect` shows, from the container alone.
        .target(name: "H2JOutputPlan", dependencies: ["H2JSupport", "H2JContainer", "H2JMetadata"]),
        // Derived images heic2jpg composes (overlays, `iden`s, grids of derived tiles): the
        // plan from the container and the painting in bands, over decoded inputs.
        .target(name: "H2JCompose", dependencies: ["H2JSupport", "H2JContainer"]),
        // The contract between the parent and its workers: the job, the options, the
        // result, the stages, and the messages on the worker's socket. No C, so the
        // parent can hold it without holding a decoder.
        .target(name: "H2JJob", dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JOutputPlan"]),
        // The worker's socket: frames, and descriptors passed with them.
        .target(name: "H2JChannel", dependencies: ["H2JSupport", "H2JJob", "CWorkerIPC"]),
        // Uncompressed (`unci`) images: layout, samples, raster; decompression is injected.
        .target(name: "H2JUncompressed", dependencies: ["H2JSupport", "H2JContainer"]),

        // One C library each.
        .target(name: "H2JColour", dependencies: ["H2JSupport", "H2JContainer", "CLCMS2"]),
        .target(name: "H2JJPEGCodec", dependencies: ["H2JSupport", "H2JJPEG", "CJPEGCodec"]),
        .target(name: "H2JDe265", dependencies: ["H2JSupport", "H2JContainer", "H2JTiles", "CDe265", "CUnwrittenBlocks"]),
        .target(name: "H2JAVCodec", dependencies: ["H2JSupport", "H2JContainer", "H2JTiles", "CAVCodecShim"]),
        .target(name: "H2JLibheif", dependencies: ["H2JSupport", "H2JContainer", "H2JTiles", "H2JDe265", "CHeif"]),
        .target(name: "H2JState", dependencies: ["H2JSupport", "CSQLite"]),
        // SHA-256 by libcrypto, faster than a portable Swift loop.
        .target(name: "H2JDigest", dependencies: ["H2JSupport", "CCrypto"]),
        // Generic compression of `unci` images: deflate/zlib and Brotli (ARCHITECTURE.md).
        .target(name: "H2JZlib", dependencies: ["H2JSupport", "CZlib"]),
        .target(name: "H2JBrotli", dependencies: ["H2JSupport", "CBrotli"]),

        // Commands.
        .target(name: "H2JInspect",
                dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JOutputPlan", "H2JColour", "H2JDigest",
                               "H2JUncompressed"]),
        // One image's conversion: source → derive → pixels → encode (and the graft),
        // written once for every image a source gives; it knows nothing of batches.
        .target(name: "H2JConvert",
                dependencies: ["H2JSupport", "H2JContainer", "H2JCompose", "H2JJPEG", "H2JMetadata", "H2JOutputPlan", "H2JJob", "H2JTiles",
                               "H2JColour", "H2JJPEGCodec", "H2JLibheif", "H2JDigest", "H2JUncompressed", "H2JZlib", "H2JBrotli",
                               "CMemoryFile"]),
        // The worker process: its main, its sandbox, the decoders a run chose, the
        // libraries it loads, and what it answers the parent (conversions, `compare`'s
        // measurements, the hand-off's output checks). A new decoder backend touches only
        // this target and its own.
        .target(name: "H2JWorker",
                dependencies: ["H2JSupport", "H2JJPEG", "H2JOutputPlan", "H2JJob", "H2JChannel", "H2JConvert", "H2JTiles", "H2JDe265",
                               "H2JAVCodec", "H2JLibheif", "H2JJPEGCodec", "H2JColour", "H2JState", "H2JDigest", "H2JZlib",
                               "H2JBrotli", "CWorkerIPC"]),
        // Batch work over many sources: walk, plan, pool, isolation, publish, state, report,
        // and the `status` command. It links no decoder: every source's bytes are decoded
        // in a worker (`H2JWorker`), which it starts and checks (`Scripts/target-graph --check-codecs`).
        .target(name: "H2JBatch",
                dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JOutputPlan", "H2JJob", "H2JChannel",
                               "H2JState", "H2JDigest", "CWorkerIPC", "CFileSystemType"]),
        // `heic2jpg compare`: each file converted in both metadata modes in a worker, the
        // outputs measured and their metadata tallied side by side.
        .target(name: "H2JCompare",
                dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JJob", "H2JBatch", "H2JDigest"]),
        .executableTarget(name: "heic2jpg",
                          dependencies: ["H2JSupport", "H2JJPEG", "H2JMetadata", "H2JOutputPlan", "H2JJob", "H2JConvert", "H2JWorker", "H2JBatch", "H2JCompare", "H2JInspect", "H2JJPEGCodec",
                                         "CSignalPipe"]),

        // libFuzzer target over the parsers of file bytes (Scripts/fuzz builds it with
        // -sanitize=fuzzer -D FUZZING); a normal build replays the files it is given.
        // CLibFuzzer only declares libFuzzer's driver entry; -sanitize=fuzzer links it.
        // It depends on the parser targets and the tile decoders (libde265 linked,
        // libavcodec dlopened), not on libheif.
        .systemLibrary(name: "CLibFuzzer"),
        .executableTarget(
            name: "heic2jpg-fuzz",
            dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JTiles", "H2JColour",
                           "H2JInspect", "H2JUncompressed", "H2JCompose", "H2JAVCodec", "H2JDe265", "CLibFuzzer"]
        ),

        // Tests: one unit-test target per library target (and the executable), each
        // depending on what its files import. H2JTestSupport holds the helpers more than
        // one test target uses (temporary directories, exiftool, box and EXIF builders,
        // HEVC reference streams, small JPEGs); it is an ordinary target, so it imports
        // only `package` declarations and builds in release too.
        .target(
            name: "H2JTestSupport",
            dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JTiles", "H2JJPEGCodec"],
            path: "Tests/H2JTestSupport"
        ),
        .testTarget(name: "H2JSupportTests", dependencies: ["H2JSupport", "H2JTestSupport"]),
        .testTarget(name: "H2JDigestTests", dependencies: ["H2JSupport", "H2JDigest", "H2JTestSupport"]),
        .testTarget(name: "H2JContainerTests", dependencies: ["H2JSupport", "H2JContainer", "H2JTestSupport"]),
        .testTarget(name: "H2JJPEGTests", dependencies: ["H2JSupport", "H2JJPEG", "H2JInspect", "H2JTestSupport"]),
        .testTarget(name: "H2JMetadataTests",
                    dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JConvert", "H2JTestSupport"]),
        .testTarget(name: "H2JTilesTests", dependencies: ["H2JSupport", "H2JContainer", "H2JTiles", "H2JTestSupport"]),
        .testTarget(name: "H2JUncompressedTests",
                    dependencies: ["H2JSupport", "H2JContainer", "H2JUncompressed", "H2JZlib", "H2JBrotli", "H2JTestSupport"]),
        .testTarget(name: "H2JStateTests", dependencies: ["H2JSupport", "H2JState", "H2JTestSupport", "CSQLite"]),
        .testTarget(name: "H2JJobTests", dependencies: ["H2JSupport", "H2JJPEG", "H2JMetadata", "H2JOutputPlan", "H2JJob"]),
        .testTarget(name: "H2JOutputPlanTests",
                    dependencies: ["H2JSupport", "H2JContainer", "H2JMetadata", "H2JOutputPlan", "H2JTestSupport"]),
        .testTarget(name: "H2JColourTests", dependencies: ["H2JSupport", "H2JContainer", "H2JColour", "H2JTestSupport"]),
        // Test-only C: a raw-plane JPEG decoder, so tests compare the samples the raw
        // encoder was given with what comes back; the shipped codec never needs it.
        .target(name: "CJPEGPlanes", dependencies: ["CLibJPEG"], path: "Tests/CJPEGPlanes"),
        .testTarget(name: "H2JJPEGCodecTests", dependencies: ["H2JJPEG", "H2JJPEGCodec", "CJPEGPlanes", "H2JTestSupport"]),
        .testTarget(name: "H2JDe265Tests", dependencies: ["H2JContainer", "H2JTiles", "H2JDe265", "H2JTestSupport"]),
        .testTarget(name: "H2JAVCodecTests", dependencies: ["H2JContainer", "H2JTiles", "H2JAVCodec", "H2JDe265", "H2JTestSupport"]),
        .testTarget(name: "H2JInspectTests",
                    dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JOutputPlan", "H2JColour", "H2JInspect",
                                   "H2JTestSupport"]),
        // Test-only C: forks a child into the worker's seccomp filter and reports what it
        // could still do (a forked child of a threaded process must stay in C).
        .target(name: "CSandboxProbe", dependencies: ["CWorkerIPC", "CMemoryFile"], path: "Tests/CSandboxProbe"),
        .testTarget(name: "H2JComposeTests", dependencies: ["H2JSupport", "H2JContainer", "H2JCompose", "H2JTestSupport"]),
        .testTarget(name: "H2JConvertTests",
                    dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JJob", "H2JJPEGCodec", "H2JOutputPlan", "H2JConvert",
                                   "H2JTiles", "H2JDe265", "H2JColour", "H2JTestSupport"]),
        .testTarget(name: "H2JBatchTests",
                    dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JOutputPlan", "H2JConvert",
                                   "H2JJob", "H2JBatch", "H2JWorker", "H2JDigest", "H2JTestSupport", "CSandboxProbe", "CWorkerIPC"]),
        .testTarget(name: "H2JCompareTests",
                    dependencies: ["H2JSupport", "H2JJPEG", "H2JMetadata", "H2JJob", "H2JConvert", "H2JCompare", "H2JTestSupport"]),
        .testTarget(name: "heic2jpgTests", dependencies: ["H2JSupport", "H2JOutputPlan", "H2JJob", "H2JConvert", "H2JWorker", "H2JBatch", "H2JCompare", "H2JInspect", "heic2jpg"]),
        // The end-to-end tests' independent decoders and pixel comparisons: libheif through
        // its C API, libjpeg through the codec shim, ffmpeg for tiles. Optimised even in
        // debug builds, since they loop over every sample of 12 MP pictures, which -Onone
        // makes many times slower (they took most of the suite's CPU time); kept apart so
        // the tests themselves still build quickly at -Onone.
        .target(
            name: "H2JReferenceDecoders",
            dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JTiles", "H2JDe265", "CHeif", "CJPEGCodec"],
            path: "Tests/H2JReferenceDecoders",
            swiftSettings: [.unsafeFlags(["-O"])]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["H2JSupport", "H2JContainer", "H2JJPEG", "H2JMetadata", "H2JTiles", "H2JJPEGCodec", "H2JAVCodec",
                           "heic2jpg", "H2JTestSupport", "H2JReferenceDecoders"]
        ),
    ]
)
