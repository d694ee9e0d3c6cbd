import H2JSupport

/// One entity group of the `meta` box's `grpl` (ISO/IEC 23008-12 §6.8): items (or
/// tracks) that belong together, such as the two eyes of a stereo pair (`ster`),
/// alternatives of which a reader shows one (`altr`), a burst (`brst`) or an album.
package struct EntityGroup: Sendable, Equatable {
    /// `ster`, `altr`, `brst`, `albc`, `favc`, `pano`, `slid`, `eqiv`, …
    package let type: String
    package let id: UInt32
    /// Item or track IDs, in the group's order (for `ster`: left eye first; for `altr`:
    /// the preferred alternative first).
    package let entities: [UInt32]

    package init(type: String, id: UInt32, entities: [UInt32]) {
        self.type = type
        self.id = id
        self.entities = entities
    }

    /// The groups of a `grpl` box. Each child is an EntityToGroupBox (a FullBox: group
    /// ID, entity count, entity IDs); one whose count runs past its box is not a group
    /// and is skipped, counted in `unreadable`, as is a `grpl` whose boxes run past its
    /// end: a damaged group never hides the image.
    static func parseGroups(_ reader: ByteReader, _ box: BoxHeader) -> (groups: [EntityGroup], unreadable: Int) {
        guard let children = try? BoxHeader.children(reader, from: box.payloadStart, to: box.end) else { return ([], 1) }
        var groups: [EntityGroup] = []
        var unreadable = 0
        for child in children {
            let start = child.payloadStart + 4
            guard let id = reader.u32(start), let count = reader.u32(start + 4),
                  Int(count) <= (child.end - start - 8) / 4 else {
                unreadable += 1
                continue
            }
            let entities = (0..<Int(count)).compactMap { reader.u32(start + 8 + 4 * $0) }
            groups.append(EntityGroup(type: child.type, id: id, entities: entities))
        }
        return (groups, unreadable)
    }
}
