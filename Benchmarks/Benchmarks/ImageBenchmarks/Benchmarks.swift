import Benchmark
import CBaselineImage
import Parley
import ParleyImage

// Side by side on the same generated 1024×1024 images, in one run:
// - ParleyImage's full decode to RGBA8 (`Image(decoding:)`: header parse, limit checks, one
//   allocation, libpng / libjpeg-turbo through the C shims) vs calling libpng / libjpeg-turbo
//   directly from C (CBaselineImage: the same transforms into a malloc'ed buffer);
// - the header-only path (`ImageInfo(reading:)`) and ImageFormat's decode to the metadata value.
// The inputs are encoded here with ParleyImage's own encoders (PNG RGBA zlib level 6, JPEG q90
// 4:2:0), so no binary files are committed.

/// A deterministic 1024×1024 RGBA8 picture: smooth gradients, a soft circle, a little noise and
/// a varying alpha, so both codecs see photo-like rather than flat data.
func picture(side: Int) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: side * side * 4)
    var state: UInt32 = 0x1234_5678
    for y in 0..<side {
        for x in 0..<side {
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = Int(state >> 28)
            let dx = x - side / 2, dy = y - side / 3
            let inCircle = dx * dx + dy * dy < (side / 4) * (side / 4)
            let o = (y * side + x) * 4
            pixels[o] = UInt8(min(255, x * 255 / side + noise))
            pixels[o + 1] = UInt8(min(255, (inCircle ? 200 : y * 255 / side) + noise))
            pixels[o + 2] = UInt8(min(255, ((x + y) / 8) % 256 + noise))
            pixels[o + 3] = UInt8(155 + (x * 100 / side))
        }
    }
    return pixels
}

let benchmarks: @Sendable () -> Void = {
    let side = 1024
    let image = try! Image(width: side, height: side, rgba: picture(side: side))
    let inputs: [(String, [UInt8])] = [("png", try! image.encoded(as: .png)), ("jpeg", try! image.encoded(as: .jpeg))]

    let decodeConfiguration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal],
                                                      maxDuration: .seconds(3), maxIterations: 200)
    let headerConfiguration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal],
                                                      maxDuration: .seconds(2), maxIterations: 100_000)

    for (name, bytes) in inputs {
        Benchmark("Image.decodeRGBA-\(name)-1024", configuration: decodeConfiguration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try Image(decoding: bytes).pixels.count)
            }
        }

        Benchmark("Image.cBaseline-\(name)-1024", configuration: decodeConfiguration) { benchmark in
            for _ in benchmark.scaledIterations {
                var width: UInt32 = 0, height: UInt32 = 0
                let pixels = bytes.withUnsafeBufferPointer { buffer in
                    name == "png" ? baseline_png_decode_rgba(buffer.baseAddress, buffer.count, &width, &height)
                                  : baseline_jpeg_decode_rgba(buffer.baseAddress, buffer.count, &width, &height)
                }
                precondition(pixels != nil && width == 1024 && height == 1024)
                blackHole(pixels?[0])
                baseline_image_free(pixels)
            }
        }

        Benchmark("Image.headerOnly-\(name)-1024", configuration: headerConfiguration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try ImageInfo(reading: bytes).width)
            }
        }

        Benchmark("Image.formatDecodeHeader-\(name)-1024", configuration: headerConfiguration) { benchmark in
            let format = ImageFormat(options: .init(verification: .header))
            let type = MediaType(type: "image", subtype: name)
            for _ in benchmark.scaledIterations {
                blackHole(try format.decode(bytes, as: type))
            }
        }
    }
}
