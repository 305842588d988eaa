import Parley
import ParleyJSON
import ParleyProtobuf
import ParleyTestKit
import Testing

@Suite struct ProtobufFormatTests {
    /// `parley.test.Scalars` with `f_int32 = 7` (field 3, varint).
    static let int32Seven: [UInt8] = [0x18, 0x07]

    @Test func mediaTypesAndName() throws {
        let format = try TestSchema.format()
        #expect(format.name == "protobuf")
        #expect(format.decodableMediaTypes.map(\.description)
                == ["application/protobuf", "application/x-protobuf", "application/vnd.google.protobuf"])
        #expect(format.encodableMediaTypes == format.decodableMediaTypes)
    }

    @Test func messageTypeComesFromTheParameterThenTheOptions() throws {
        let format = try TestSchema.format(messageType: nil)
        #expect(try format.decode(Self.int32Seven, as: "application/protobuf; messageType=parley.test.Scalars")
                == ["fInt32": 7])
        #expect(try format.decode(Self.int32Seven, as: "application/x-protobuf; proto=parley.test.Scalars")
                == ["fInt32": 7])
        #expect(try format.decode(Self.int32Seven,
                                  as: "application/vnd.google.protobuf; messageType=.parley.test.Scalars")
                == ["fInt32": 7])
        let configured = try TestSchema.format(messageType: "parley.test.Scalars")
        #expect(try configured.decode(Self.int32Seven, as: "application/protobuf") == ["fInt32": 7])
        #expect(try configured.encode(["fInt32": 7], as: "application/protobuf") == Self.int32Seven)
    }

    @Test func aMissingOrUnknownMessageTypeIsATypedError() throws {
        let format = try TestSchema.format(messageType: nil)
        #expect { try format.decode(Self.int32Seven, as: "application/protobuf") } throws: {
            ($0 as? FormatError)?.code == ProtobufFormat.missingMessageType
        }
        #expect { try format.encode(["fInt32": 7], as: "application/protobuf") } throws: {
            ($0 as? FormatError)?.code == ProtobufFormat.missingMessageType
        }
        #expect { try format.decode(Self.int32Seven, as: TestSchema.type("parley.test.Nope")) } throws: {
            let error = $0 as? FormatError
            return error?.code == ProtobufFormat.unknownMessageType
                && error?.message.contains("parley.test.Nope") == true
        }
        #expect { try ProtobufFormat().decode(Self.int32Seven, as: TestSchema.type("parley.test.Scalars")) } throws: {
            ($0 as? FormatError)?.code == ProtobufFormat.missingSchema
        }
    }

    @Test func aBrokenDescriptorSetIsATypedError() {
        #expect { try ProtobufFormat(descriptorSets: [[0x0A, 0x05, 0x01]]) } throws: {
            ($0 as? FormatError)?.code == .malformed
        }
    }

    @Test func messageTypesListsMessagesButNotMapEntries() throws {
        let types = try TestSchema.format().messageTypes
        #expect(types.contains("parley.test.Everything"))
        #expect(types.contains("google.protobuf.Timestamp"))
        #expect(!types.contains { $0.hasSuffix("Entry") })
        #expect(types == types.sorted())
    }

    @Test func encodingAcceptsBothFieldNames() throws {
        let format = try TestSchema.format()
        let camel = try format.encode(["customName": 5, "optionalInt32": 0, "choiceText": "x"])
        let original = try format.encode(["custom_json": 5, "optional_int32": 0, "choice_text": "x"])
        #expect(camel == original)
        #expect(try format.decode(camel) == ["choiceText": "x", "optionalInt32": 0, "customName": 5])
    }

    @Test func defaultsAreOmittedUnlessTheFieldHasPresence() throws {
        let format = try TestSchema.format()
        // custom_json = 0 written explicitly (field 13), optional_int32 = 0 (field 9).
        #expect(try format.decode([0x68, 0x00, 0x48, 0x00]) == ["optionalInt32": 0])
        #expect(try format.encode(["customName": 0]) == [])
        #expect(try format.encode(["optionalInt32": 0]) == [0x48, 0x00])
    }

    @Test func theLastOneofMemberWins() throws {
        let format = try TestSchema.format()
        // choice_text "a" (field 5), then choice_number 3 (field 6).
        #expect(try format.decode([0x2A, 0x01, 0x61, 0x30, 0x03]) == ["choiceNumber": "3"])
    }

    /// Fields out of number order come out in it; a singular message that arrives twice is merged; a later
    /// default value of a field without presence leaves it out.
    @Test func fieldsArrivingOutOfOrderOrTwiceReadAsOneMessage() throws {
        let format = try TestSchema.format()
        // custom_json (13) = 5; scalars (1) = {f_int32 = 7}; scalars = {f_string = "a"}; optional_int32 (9) = 1;
        // custom_json = 0.
        let bytes: [UInt8] = [0x68, 0x05, 0x0A, 0x02, 0x18, 0x07, 0x0A, 0x03, 0x72, 0x01, 0x61, 0x48, 0x01, 0x68, 0x00]
        let value = try format.decode(bytes)
        #expect(value == ["scalars": ["fInt32": 7, "fString": "a"], "optionalInt32": 1])
        #expect(value.objectValue?.keys == ["scalars", "optionalInt32"])
    }

    /// Floats read as the shortest decimal of at least six digits that reads back as the same float, as Google's
    /// Python runtime prints them (the expected values are its `type_checkers.ToShortestFloat`), and each is
    /// written back as the float it was: the largest float's shortest decimal, 3.4028235e+38, is over its exact
    /// value and rounds to it.
    @Test func floatsReadAsTheirShortestDecimal() throws {
        let format = try TestSchema.format(messageType: "parley.test.Scalars")
        let cases: [(UInt32, Double)] = [
            (0x3DCC_CCCD, 0.1), (0x449C_3C00, 1249.875), (0x4B80_0001, 16777218.0), (0x7F7F_FFFF, 3.4028235e+38),
            (0x0000_0001, 1.4013e-45), (0x0080_0000, 1.1754944e-38), (0x3EAA_AAAB, 0.33333334),
            (0x47F1_2065, 123456.79), (0x3040_6A1F, 7e-10), (0xB7D1_B717, -2.5e-05), (0x4B18_967F, 9999999.0),
            (0x3901_742E, 0.00012345679),
        ]
        for (bits, expected) in cases {
            let wire: [UInt8] = [0x15] + (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
            #expect(try format.decode(wire) == ["fFloat": .float(expected)], "float bits \(bits)")
            #expect(try format.encode(["fFloat": .float(expected)]) == wire, "float bits \(bits)")
            #expect(try format.encode(["fFloat": .float(-expected)]) == wire.prefix(4) + [wire[4] ^ 0x80])
        }
    }

    /// A double is a float when it rounds to a finite one (a float's shortest decimal may be past the float);
    /// one that rounds to infinity is refused, as protobuf's conformance suite has JSON parsers do.
    @Test func doublesRoundingPastTheLargestFloatAreRefused() throws {
        let format = try TestSchema.format(messageType: "parley.test.Scalars")
        #expect(try format.encode(["fFloat": .float(3.4028235677e+38)]) == [0x15, 0xFF, 0xFF, 0x7F, 0x7F])
        for number in [3.4028236e+38, -3.4028236e+38, 1e39] {
            #expect(throws: FormatError.self) { try format.encode(["fFloat": .float(number)]) }
        }
        #expect(try format.encode(["fFloat": "Infinity"]) == [0x15, 0x00, 0x00, 0x80, 0x7F])
    }

    @Test func packedAndUnpackedRepeatedFieldsBothRead() throws {
        let format = try TestSchema.format(messageType: "parley.test.Repeated")
        // r_int32 (field 3) packed [1, 2] then unpacked 3; unpacked_int32 (field 17) packed [4].
        let bytes: [UInt8] = [0x1A, 0x02, 0x01, 0x02, 0x18, 0x03, 0x8A, 0x01, 0x01, 0x04]
        #expect(try format.decode(bytes) == ["rInt32": [1, 2, 3], "unpackedInt32": [4]])
        #expect(try format.decode([0x6A, 0x00]) == [:])   // an empty packed run of r_bool (a fuzzing find)
        #expect(try format.encode(["rInt32": [1, 2, 3], "unpackedInt32": [4]])
                == [0x1A, 0x03, 0x01, 0x02, 0x03, 0x88, 0x01, 0x04])
    }

    /// parley.test2.WithGroups (proto2): group header = 2 holds title = 3 and repeated group tag = 5; a group is
    /// read between its start and end tags and written back the same way.
    @Test func proto2GroupsReadAndWriteBetweenTheirTags() throws {
        let format = try TestSchema.format(messageType: "parley.test2.WithGroups")
        let wire: [UInt8] = [0x08, 0x07, 0x13, 0x1A, 0x02, 0x68, 0x69, 0x2B, 0x32, 0x01, 0x61, 0x2C, 0x14]
        let value: Value = ["id": 7, "header": ["title": "hi", "tag": [["label": "a"]]]]
        #expect(try format.decode(wire) == value)
        #expect(try format.encode(value) == wire)
        // A singular group that occurs twice is merged, as a message is.
        #expect(try format.decode([0x13, 0x1A, 0x01, 0x61, 0x14, 0x13, 0x20, 0x02, 0x14])
                == ["header": ["title": "a", "stamp": "1"]])
    }

    @Test func unknownEnumNumbersReadAsNumbers() throws {
        let format = try TestSchema.format(messageType: "parley.test.Scalars")
        #expect(try format.decode([0x80, 0x01, 0x07]) == ["fColor": 7])
        #expect(try format.decode([0x80, 0x01, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
                == ["fColor": "COLOR_BLUE"])
        #expect(try format.encode(["fColor": 7]) == [0x80, 0x01, 0x07])
        #expect { try format.encode(["fColor": "COLOR_PURPLE"]) } throws: {
            ($0 as? FormatError)?.code == .unsupportedValue
        }
    }

    @Test func unknownFieldsAreDroppedOrKeptAndWrittenBack() throws {
        // f_int32 = 7, then unknown field 99 (varint 5) and field 100 (bytes "hi").
        let bytes: [UInt8] = [0x18, 0x07, 0x98, 0x06, 0x05, 0xA2, 0x06, 0x02, 0x68, 0x69]
        let dropping = try TestSchema.format(messageType: "parley.test.Scalars")
        #expect(try dropping.decode(bytes) == ["fInt32": 7])
        let keeping = try TestSchema.format(messageType: "parley.test.Scalars", keepsUnknownFields: true)
        let value = try keeping.decode(bytes)
        #expect(value == ["fInt32": 7, "@unknown": .bytes(Array(bytes[2...]))])
        #expect(try keeping.encode(value) == bytes)
    }

    @Test func encodingNamesTheMemberItCannotPlace() throws {
        let format = try TestSchema.format()
        #expect { try format.encode(["scalars": ["fInt33": 1]]) } throws: {
            let error = $0 as? FormatError
            return error?.code == .unsupportedValue && error?.message.contains(".scalars") == true
                && error?.message.contains("fInt33") == true
        }
        #expect { try format.encode(["scalars": ["fInt32": 3_000_000_000]]) } throws: {
            ($0 as? FormatError)?.code == .unsupportedValue
        }
        #expect { try format.encode(["wellKnown": ["timestamp": "yesterday"]]) } throws: {
            ($0 as? FormatError)?.code == .unsupportedValue
        }
    }

    @Test func wellKnownTypesReadAndWriteAsProtoJSONSays() throws {
        let format = try TestSchema.format(messageType: "parley.test.WellKnown")
        let value: Value = [
            "timestamp": "1972-01-01T10:00:20.021Z", "duration": "-1.500s", "int64Value": "0",
            "boolValue": false, "structValue": ["a": [1.5, "b", nil, true]], "value": nil, "listValue": [],
            "fieldMask": "fooBar,baz.quxQuux", "any": ["@type": "type.googleapis.com/google.protobuf.Duration",
                                                     "value": "3s"], "empty": [:],
        ]
        let decoded = try format.decode(try format.encode(value))
        #expect(decoded == value)
        #expect(try format.decode(try format.encode(["timestamp": "1972-01-01T12:00:20.021+02:00"]))
                == ["timestamp": "1972-01-01T10:00:20.021Z"])
    }

    @Test func theConformanceKitPasses() throws {
        let format = try TestSchema.format()
        let samples: [Value] = [
            ["scalars": ["fDouble": 0.25, "fInt64": "-9223372036854775808", "fUint64": "18446744073709551615",
                         "fBool": true, "fString": "héllo ✓ 𝄞", "fBytes": "AAEC", "fColor": "COLOR_BLUE"]],
            ["repeated": ["rFloat": [1.5, "NaN"], "rString": ["", "a"], "rMessage": [[:], ["fInt32": -1]]],
             "maps": ["stringToString": ["k": "v"], "boolToDouble": ["true": 1.0]]],
            ["choiceMessage": [:], "optionalString": "", "child": ["child": ["customName": 3]]],
        ]
        // Messages nest, but not as the kit's arrays do: the depth limit has its own tests.
        FormatConformance.expectConformance(of: format, options: .init(
            samples: samples,
            equivalent: { ValueOrder.sorted($0) == ValueOrder.sorted($1) },
            checksDepth: false))
    }
}

/// Objects with their members sorted by key, so values compare without regard to member order.
enum ValueOrder {
    static func sorted(_ value: Value) -> Value {
        switch value {
        case .object(let object):
            return .object(Value.Object(object.sorted { $0.key < $1.key }
                .map { Value.Object.Member(key: $0.key, value: sorted($0.value)) }))
        case .array(let items): return .array(items.map(sorted))
        default: return value
        }
    }
}

@Suite struct ProtobufWellKnownEdgeTests {
    @Test func valuesWithoutAJSONFormAreTypedErrors() throws {
        let format = try TestSchema.format(messageType: "parley.test.WellKnown")
        // value (13) = Value{number_value (2) = NaN}.
        let nan: [UInt8] = [0x6A, 0x09, 0x11, 0, 0, 0, 0, 0, 0, 0xF8, 0x7F]
        #expect { try format.decode(nan) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
        // field_mask (15) = FieldMask{paths = ["fooBar"]}: no lowerCamelCase text reads back as it.
        let mask: [UInt8] = [0x7A, 0x08, 0x0A, 0x06] + Array("fooBar".utf8)
        #expect { try format.decode(mask) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
        // A Timestamp before year 1.
        let early: [UInt8] = [0x0A, 0x0B, 0x08] + [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]
        #expect { try format.decode(early) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
    }
}
