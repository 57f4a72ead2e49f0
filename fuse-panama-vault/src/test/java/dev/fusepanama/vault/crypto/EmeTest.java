package dev.fusepanama.vault.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * EME against published known answers, and its inverse property at every length.
 *
 * <p>The vectors are those of the rfjakob/eme repository (github.com/rfjakob/eme, commit
 * 60f81132ce7df625785c72ae975dc926b923e7c1), the implementation gocryptfs uses:
 * <ul>
 *   <li>{@code eme32_test.go}: the EME-32 vectors (AES-256, 512 bytes) that the IEEE P1619
 *       security-in-storage working group published, an encryption and a decryption of 512 zero
 *       bytes under an all-zero key and tweak (grouper.ieee.org/groups/1619/email/pdf00020.pdf),
 *       and 100 chained encryptions and decryptions of those outputs, each keyed by the first
 *       32 bytes of its input and tweaked by the next 16 (grouper.ieee.org/groups/1619/email/msg00218.html);</li>
 *   <li>{@code eme_test.go}: rfjakob's own vectors for the smallest and largest lengths, 16
 *       and 2048 zero bytes under an all-zero key and tweak.</li>
 * </ul>
 */
class EmeTest {
    private static final byte[] ZERO_KEY = new byte[32];
    private static final byte[] ZERO_TWEAK = new byte[16];

    @Test
    void encryptingSixteenZeroBytesMatchesRfjakobsVector() {
        try (Eme eme = new Eme(ZERO_KEY)) {
            assertArrayEquals(ENC16_ZERO, eme.encrypt(ZERO_TWEAK, new byte[16]));
            assertArrayEquals(new byte[16], eme.decrypt(ZERO_TWEAK, ENC16_ZERO));
        }
    }

    @Test
    void encryptingFiveHundredTwelveZeroBytesMatchesTheEme32Vector() {
        try (Eme eme = new Eme(ZERO_KEY)) {
            assertArrayEquals(ENC512_ZERO, eme.encrypt(ZERO_TWEAK, new byte[512]));
            assertArrayEquals(new byte[512], eme.decrypt(ZERO_TWEAK, ENC512_ZERO));
        }
    }

    @Test
    void decryptingFiveHundredTwelveZeroBytesMatchesTheEme32Vector() {
        try (Eme eme = new Eme(ZERO_KEY)) {
            assertArrayEquals(DEC512_ZERO, eme.decrypt(ZERO_TWEAK, new byte[512]));
            assertArrayEquals(new byte[512], eme.encrypt(ZERO_TWEAK, DEC512_ZERO));
        }
    }

    @Test
    void encryptingTwoThousandFortyEightZeroBytesMatchesRfjakobsVector() {
        try (Eme eme = new Eme(ZERO_KEY)) {
            assertArrayEquals(ENC2048_ZERO, eme.encrypt(ZERO_TWEAK, new byte[2048]));
            assertArrayEquals(new byte[2048], eme.decrypt(ZERO_TWEAK, ENC2048_ZERO));
        }
    }

    /** The P1619 chained vector: key and tweak are taken from the previous vector's output. */
    @Test
    void aHundredChainedEncryptionsMatchTheP1619Vector() {
        byte[] data = ENC512_ZERO;
        try (Eme eme = new Eme(Arrays.copyOfRange(ENC512_ZERO, 0, 32))) {
            byte[] tweak = Arrays.copyOfRange(ENC512_ZERO, 32, 48);
            for (int i = 0; i < 100; i++) {
                data = eme.encrypt(tweak, data);
            }
        }
        assertArrayEquals(ENC512_X100, data);
    }

    @Test
    void aHundredChainedDecryptionsMatchTheP1619Vector() {
        byte[] data = DEC512_ZERO;
        try (Eme eme = new Eme(Arrays.copyOfRange(DEC512_ZERO, 0, 32))) {
            byte[] tweak = Arrays.copyOfRange(DEC512_ZERO, 32, 48);
            for (int i = 0; i < 100; i++) {
                data = eme.decrypt(tweak, data);
            }
        }
        assertArrayEquals(DEC512_X100, data);
    }

    @Test
    void decryptInvertsEncryptAtEveryLengthFromSixteenToTwoThousandFortyEight() {
        Random random = new Random(1);
        byte[] key = new byte[32];
        random.nextBytes(key);
        try (Eme eme = new Eme(key)) {
            for (int length = 16; length <= 2048; length += 16) {
                byte[] tweak = new byte[16];
                byte[] plain = new byte[length];
                random.nextBytes(tweak);
                random.nextBytes(plain);
                byte[] cipher = eme.encrypt(tweak, plain);
                assertEquals(length, cipher.length, "EME preserves length");
                assertFalse(Arrays.equals(plain, cipher), "length " + length);
                assertArrayEquals(plain, eme.decrypt(tweak, cipher), "length " + length);
            }
        }
    }

    /** What makes EME right for names: no ciphertext block reveals anything on its own. */
    @Test
    void changingTheLastPlaintextByteChangesEveryCiphertextBlock() {
        try (Eme eme = new Eme(ZERO_KEY)) {
            byte[] a = new byte[64];
            byte[] b = a.clone();
            b[63] = 1;
            byte[] ca = eme.encrypt(ZERO_TWEAK, a);
            byte[] cb = eme.encrypt(ZERO_TWEAK, b);
            for (int block = 0; block < 4; block++) {
                assertFalse(Arrays.equals(ca, block * 16, block * 16 + 16, cb, block * 16, block * 16 + 16), "block " + block);
            }
            byte[] otherTweak = ZERO_TWEAK.clone();
            otherTweak[0] = 1;
            assertFalse(Arrays.equals(ca, 0, 16, eme.encrypt(otherTweak, a), 0, 16), "another tweak, another first block");
        }
    }

    @Test
    void lengthsThatAreNotWholeBlocksFrom16To2048AreRefused() {
        try (Eme eme = new Eme(ZERO_KEY)) {
            for (int length : new int[] {0, 8, 15, 17, 2040, 2064}) {
                assertThrows(IllegalArgumentException.class, () -> eme.encrypt(ZERO_TWEAK, new byte[length]), "length " + length);
            }
            assertThrows(IllegalArgumentException.class, () -> eme.encrypt(new byte[15], new byte[16]));
            assertThrows(IllegalArgumentException.class, () -> new Eme(new byte[16]));
        }
    }

    @Test
    void threadsEncryptingAtOnceGetTheSameResultsAsOneThread() throws Exception {
        Random random = new Random(2);
        byte[] key = new byte[32];
        random.nextBytes(key);
        List<byte[]> tweaks = new ArrayList<>();
        List<byte[]> inputs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            byte[] t = new byte[16];
            byte[] p = new byte[16 * (1 + random.nextInt(128))];
            random.nextBytes(t);
            random.nextBytes(p);
            tweaks.add(t);
            inputs.add(p);
        }
        try (Eme eme = new Eme(key)) {
            List<byte[]> expected = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                expected.add(eme.encrypt(tweaks.get(i), inputs.get(i)));
            }
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int thread = 0; thread < 4; thread++) {
                    done.add(pool.submit(() -> {
                        for (int round = 0; round < 20; round++) {
                            for (int i = 0; i < inputs.size(); i++) {
                                assertArrayEquals(expected.get(i), eme.encrypt(tweaks.get(i), inputs.get(i)));
                                assertArrayEquals(inputs.get(i), eme.decrypt(tweaks.get(i), expected.get(i)));
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aClosedEmeRefusesToWork() {
        Eme eme = new Eme(ZERO_KEY);
        eme.close();
        assertThrows(IllegalStateException.class, () -> eme.encrypt(ZERO_TWEAK, new byte[16]));
    }

    /** The timesTwo convention: byte 0 is the least significant, a carry out of byte 15 folds back as 0x87. */
    @Test
    void doublingCarriesFromByteToByteUpwardsAndReducesByTheEmePolynomial() {
        byte[] b = new byte[16];
        b[0] = (byte) 0x80;
        Eme.timesTwo(b);
        byte[] expected = new byte[16];
        expected[1] = 1;
        assertArrayEquals(expected, b);
        Arrays.fill(b, (byte) 0);
        b[15] = (byte) 0x80;
        Eme.timesTwo(b);
        expected = new byte[16];
        expected[0] = (byte) 0x87;
        assertArrayEquals(expected, b);
    }

    private static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("\\s", ""));
    }

    private static final byte[] ENC512_ZERO = hex("""
            9f2e6c3daecae79e8839b0588ff378cd0668970b95691cb00182b9e34cd658ed
            3c9c276838cc5e1411fcb8cf3da1c0f30875804c9df51157b0791100d2551334
            834cf4024f6b718fbc7daba07d14eb7cbc79c261b1eb036d0c9f85b914385840
            727284005f06a9c1627c0b7fb12a1f81fa83c4b035db006cce846d0756db9fb2
            448ee5628d2376ee13954213db3dca725f2c67950eaf2cdac8a27a0433a14c96
            927d9145dd93e0b46e670f6c4db8add014b8880efb9a97bec5cd05bba43dcc35
            058045ae8168df6e67779198fcc72808ce29c7b5aefdbc9e3ee65117283bfa2e
            195f82ce1962dd8112cb57e8040d776733d3bb331ea6300f91dee0cbeb2fc9af
            d341f5515e22371e442b86e70287546a166ec2aef89f291be62afc2a96891e44
            6ef6f162735574d10cff4a183de2760b5e145deaad3efde1da4b2836c665c5ec
            4b54cb989d277311c42db4862db2920c3942958e54f64e365e52190ed81a02d7
            3bf78a8ae5cc83e03203ef421614b79ae984b67ee93483d5eb1ea7b4fd954cc3
            5059bd4d932ef34271825045d73effef2ed3489871fda2cc73924b4d459d1c6e
            e525421e0550d3ab876f615395ac4a54d20478a442d85c9a3c9c7fa148f2b9dc
            adaa83cf40e9e464da6036a55cdb873b50c1060ecc27b48dc0afc76ef73f1489
            281c08efce7fec47edd823f2f562b333ac209c2cd3cc577c28eedaafcedd89a6
            """);

    private static final byte[] DEC512_ZERO = hex("""
            080905dee8ebcc89f68bd1af635db3f5b60c2f13f7c768fceb1220f6c227fd83
            5f293e85f1eaa8ee2322f54291bf051e7b15af84c7eaa4e85158af7f4e6ff24a
            62bacff6dbf91f433f3bd564dffbe9fe1b0e14d27687589498d5e8ca11acba2b
            c6016d7823e3036c61ce9777ec2445890779027f7d494893d92f19bdfe160ef8
            2c36069ca887d84ea00ccc40130cf7c4118c5d0822a5e1f493cdae96f5752031
            b453e4cb8608c8f2ba2c78c941124c18e39f50ab74b83147aa3fb800537eb9ac
            55d737552e050375f607c59b4213d87e58e8da6e23029c9cb807ac63133b9fdd
            dad8712bd7821137d9f8fdc3e28aeb08ee2fae3ec1f80d9126a3d2d0e4e4f1c6
            424ce6b5e973e52703afb31cee7990da82b316189ad16fe059921c60a95a1208
            71065b9ed649d2117dfb0ce5b53595119f2177bea462f76660c6a07c810d21e1
            85e2dae559c27f14093f21a96d4e2a8141d76a3f964aa70bf7e929e73224bd9f
            1719fdff96bf4ca5db516627225760f3d2d8670a4b82e16a8b4358ecd781b0ee
            a22a29d0764424e91e3dc7a6a1cedd148c4bbb1b524b9c8dd3f3d15340775fe9
            c98eec220b524a8d9595d2f43c6783e603a35b8df96a168975acf5ac4ea47e02
            b73a8ce6aff8e52dad768979bd7392b3050dd3b4e4790e25e9a34ee607db5a58
            5d16ca6b16aa76372ab49e31df4865073af804a5c9dab34420f260e4bd840829
            """);

    private static final byte[] ENC512_X100 = hex("""
            36008c95e732a23194937cc4dded30ffee0ff600f3ee8796a58af9bb124ad028
            50fb30fac78316a64693acd38602e4c704a4152fb2d4383eeb1d85b10f9e39be
            8d619f689303a5b9c3f7d89baa6f2e43afaa0bd2ac3452da6aa20fff33edb8f3
            07247d055ecbb6e4b539c2c53088dda499b5d967f98bcec4a54f4d272643e13c
            4226f69ee627a04f3aaea07e033d3c4f88a6509c727588b152ca41415d697fdf
            dd440b2386bb9a5770ca281c2207d3eb9b27fc6a2e482e799588c77b6ba3a1a4
            660e77ed708a65df22863704bbe944292178362892864862d3c9a18dd70420c8
            87e958a4306ec84fe7f66ddcdeba5beedab032fbe8d4ddc45bd484349fd4cff5
            d729905fb560ac02ba1c83d8c5b71f70728f90d1d35db3651a303f9db9b53feb
            99194405a085f5434ed1bb4e071722376131633827c54b86153c7928e5d9e583
            58ef4a2efefe165e94fec5c2f06991d9f61eb4d0e6fa5a28d6ed62216e4adc2b
            507ae23f256188e740d425fdc86e9b226ca8f02f9d7460ee10ceb0ce7306902b
            b5393e4c1fcfd9226c572c1696e15ffcbbe89a9ea3e09cfa2ab463a37ba6ebed
            cc025979fbc0eda888db93ecaac44869a176a94e59564eafc8e9781ddbce6b74
            c984ec1f27f7b9c0e4aeb714b147e27934bf09a15f9013299a2d32072a7c112d
            064852e0c3345d8834f16f1fb280b9eaf88cadd40ca29c428666cf533fb05c1e
            """);

    private static final byte[] DEC512_X100 = hex("""
            78d8f9c2baaebcb97c3914fe4fd9b9ed1b0fd08c64ce0f7fa440c2b2317cacc6
            10e75ae226a64c8de42736867dbc5fe2ac663b6db555d79dc480b707c10411b8
            31aa3eaa5a306fdf95c4ea0684b78bd6245275b5bc245758b238274c2b7d7b8f
            d1b90e390cd10ed54ad7d7221a1aae56f815f7026d3ee3fb1232f85e500ae875
            6a53e24038e9d254b4f09486f95cab882502b77c95795514909260314febdf2a
            c0d4fd47f5d6fda2ba66d1b125a900d78cab58bf8eb9f241d080061a2e46be3c
            21f748459426f79b619e8c8125f06a607c9a55e4fd12e817e390fb5f8c5a0576
            cfd25f5e0acb9dc080b9c01c7c9a4127159b8a4cd0cffae0f241bfbf8e41f24d
            5068bd3454a9be8e4f99881a7f6ff21e3a7a33700fc1f82b6413e3f97221a617
            16155449cfe87a3d5749f3919611def95d58e42bd6d89143e3a0ca588a59b79a
            550632fedd84629a7075b089f2b0802b69b82ee0f603f03e99263fb6951991d8
            804963eda1231b250df55ef79eefde3c99b9cd91eaa79563a9cd16136db2436f
            4d721f9123948afc0b6333cf2ed4caaba3404edd2de8f6556677c9b286a20634
            394cb7ea72dd7ee3657d6ee1cfed8c3b94b8bcc5784702577fe400b38a7b0895
            7473cb57efb861f2eb9eec5a1200cbd75b41433ff1756ce72988ca9a690f6597
            ca0e8c98a15c8b5471bc1167978ec83bc5b5660b4bc9938a41dbcf8fce321d1f
            """);

    private static final byte[] ENC16_ZERO = hex("""
            f1b9ce8ca15a4ba9fb476905434b9fd3
            """);

    private static final byte[] ENC2048_ZERO = hex("""
            630500884158a8d41216aaa6351e92ea7ca540a949e73f1d6069afef372eae22
            6d426d8f4dbbce505051fcd596e7b32cdd1e44a40bcce0887ebbc160f779dafb
            b68bc25a40040987cdb5aba19b956e11dd69d7ce74d1d8788903254217300f3a
            fd9a92cea395a89fd842256d3919ac303c1d1a21ec44cb2898acabb3d0e04e05
            845e9183a64b4148f9614f62f79fa971799c896c58cd2b285cb00e40720b5c11
            8ef1c0dbf5e51f09cd10db672b9c22c53d4bf5dabf16cfcbc382e3209e7ba279
            55b2afa055924d2155319205f964492e0e88172f4ffadca35cd3e694fd3d803f
            610edc1696113996749bdb2a2dfb8fbd92f0ef723146f93d969d1de4cc1c19ef
            a33785f135a1203005ba2208fcd6b9f0d0e942993671b0c5baefe7ed0bbfe070
            a9e1d26eed37228ceda64b70c25a59fd040703acc385c6e4093a8e258984371c
            2d811c01723b87c820a55470501b245d97a0c7564c44e1e31a89457c1125198d
            27ac2dec67f7237c781f9f622e420da471af577fa6ad8014bb1dad52dc450e37
            ebeeb1f1b7ba3c3d5796c6646bd052fe66cf61d22f6e58efcbf0328d3b6e1088
            603e54bfd2da241c970fec58c7d21fc2b2f1b4b79552a92500a7e6848a22ec47
            ee362cef9787af3b26439470992c8d103997395aefeff10802673d4630009e4e
            5ed26038d5f05c589e64046274d5ff133398e4bab08ca71c0ce93dbd0657785b
            150c9e418339e8e47d02ae7322b5b55364dfe10dd02d54dc5f2dbe82e55bcf05
            03b30d709301fc7f63cd15e7e1245189405b1364b6074c0e493f7beb27385986
            4e95643c7d914279d95f220247618b7a5c896d604e9ce88e0a3ab434cfe97cab
            c520b20e2fffee958972e82e98b952cbf3567be560a8385e520b636829252cae
            16ac882d1d3dde447a90af52be7967f357a36382c9672a659ed0ffae9ee7b969
            c8c788f982fbd524efb6b852f65be5f371032691e9ef6e5a217607cf990e5351
            b251f841834045d9bd54633e8bb0d19569377f805857a503a2642dfc06e2063d
            fd465dcae83b1e362394cdf20bd6a6d5dd0bacad7f2d407e597b004e90683bfc
            23b92796bb0cdf67752765dbba2d1332848adcb83e60b7f3f8c397a3aa5de08b
            f491676a18ee4a6ed9b342b33c081794365a72668f273a655e150fa36686aa5d
            fbc87ccda9cbe7982e531044cd9fcea68ca1a5034ee64e0558b7c6af56808c03
            43506dccf39e4ca8634518e6420c107b7d5fe89943e9f40044b2ae7f047d9727
            5ec4763b41416fb3faff897e6ee0047f97b215b02ee09a3f533cba2ee131a0aa
            68772860759325ea4dc7ab86528d0aff55f96d00a908ea32f9fa8bd0640d632b
            f0d812f43beb03e6c6d4a654b41f27143fde4aa7ed16ae4bba939fbed8ae28da
            ce83fcb49fd3ca910512902fc696419968e260901796f3af75d059c6e93a8f53
            b445f921e60d9429007c78107309a86102b923dbb2f1fa04f84539c7c58ed45b
            40d4b267541d8f2f932ae75dfc13ef906089e1c847635aaada201e32301f326a
            733f4a99caa56fa00ccd6de2752a4495408bb4c930eaf84c97a28767a036f656
            27efa868adeee1cf47840e67ac4489381da1513dd3d1707a5ad91ac4ba1c3571
            4b1cd77e05551612cdfb88187a5a39afd5b2a54f88aeb9605c1e01cd7a976a16
            8c6e40eddcb20f09fe54a07a7c971eda08789b41e450f46a30c2b3494f30a060
            73631d151ae048793fe32ff08a08b8693d1da71451f7ff2438d7a521f8c97e4b
            c8ee744c1574d296c799d3f94e81522ce81def780660cee061d3110c1f18133d
            ca1daabb2268aad76327f3cb6ae8c96fc66b5506f5644f2652d022d7b6162099
            70f78b8e5c9a74f5d1fc31037d01733bff097a661d4331adc087b84e32afb9d8
            2a0614ea459022918f8ca60e74b7c6865d3e86e6ae4acf9546985dc5ccf242dd
            9ab0486bde99a1e656499cbfceef8de5beafda89965bf208c70f4a0f8f677792
            962b09e0a355d53bbacb4a7acc16e50aa483994d85ca7e28a34ee52843d4f27a
            cfb3b5347b89099fd01642b605f87f82283bb146aa319048462fe11a71d0fa06
            4e825f69a502ae539240b13a2568383f80c30ebb9a29d2de4c45e6405bd8d158
            6fe5eef0477d3c21434b3471c0f864dd4c2f135278645ef1b1ebb4d6954f9276
            3d787ad3d0bb48409782cd803a877027ae105511cdaefe0110f9f6c65f2a34ad
            12532f4715c0341346dc06bcc4bb0e5c04ffdfd3f625e7e3811a760a2cfa9cbe
            1c2914882c192b793aeeb3ab8b03fd8be7e248fc9e5aa0c651d4bb5318c8a266
            b735ddc167d837499a3b38dcdfe188e25172eb974eb0eff20cc5c6e42e505fea
            7a3b6edfdf93b7062737ea00f72a415c4dfd3cd4fab2dad812d88d02690f606b
            52dcfb0ab220dc65a7dee6f31e951324a1c442adfe9cf672646876bedc2c2cb7
            1bac583f3cf4ea6769eb54d22bf22b0d908a297caa13767ed14c44b738799e82
            1885b2b2988a9b88a2f35bf8d307543af9007fadcfcc273f8029c2fe3d59449c
            5f193ca7f8986ca7451d9a3ee14335b10868421b64ea1605d48d4fc22e378f82
            b7fe3e88aada30b4c545408b87b24511e371f25d1a94e7b78a6a7aec848e6f82
            614f96ef5ed8705e0adec0f889c1860cf8211d716fddf319862290019a4387fb
            77c89a5ae7d0074fa72024f2e5096d39ebac8e8ed02191879585394987fea3a0
            7a720d6880910629cdcd83a02ffd98830d2f57ee6c53b5cfedb42ec7c3d925cf
            3080c343f21711a90f117e9eaf91402d09b83e83bd18d1c4e3d165a8b9bac7ad
            ca12cb0147bfc4c6e2166c57b8182e63fbc698881ed5b329eb491eb98050a922
            c15804021013bf08942db9ee6d8f2a2c4eb93771340ed9e323d09e4256b7e5ac
            """);
}
