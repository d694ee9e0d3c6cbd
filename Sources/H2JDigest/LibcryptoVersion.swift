import CCrypto
import H2JSupport

extension LibraryVersion {
    /// The loaded libcrypto's version (`OpenSSL_version(OPENSSL_VERSION_STRING)`: "3.0.19").
    package static var libcrypto: LibraryVersion {
        LibraryVersion("libcrypto", cString: OpenSSL_version(Int32(OPENSSL_VERSION_STRING)))
    }
}
