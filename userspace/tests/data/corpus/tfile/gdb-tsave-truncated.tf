TRACE0
R 970
tdesc 
tdesc <!DOCTYPE target SYSTEM "gdb-target.dtd">
tdesc <target>
tdesc   <architecture>i386:x86-64</architecture>
tdesc   <osabi>GNU/Linux</osabi>
tdesc   <feature name="org.gnu.gdb.i386.core">
tdesc     <flags id="i386_eflags" size="4">
tdesc       <field name="CF" start="0" end="0" type="bool"/>
tdesc       <field name="" start="1" end="1" type="bool"/>
tdesc       <field name="PF" start="2" end="2" type="bool"/>
tdesc       <field name="AF" start="4" end="4" type="bool"/>
tdesc       <field name="ZF" start="6" end="6" type="bool"/>
tdesc       <field name="SF" start="7" end="7" type="bool"/>
tdesc       <field name="TF" start="8" end="8" type="bool"/>
tdesc       <field name="IF" start="9" end="9" type="bool"/>
tdesc       <field name="DF" start="10" end="10" type="bool"/>
tdesc       <field name="OF" start="11" end="11" type="bool"/>
tdesc       <field name="NT" start="14" end="14" type="bool"/>
tdesc       <field name="RF" start="16" end="16" type="bool"/>
tdesc       <field name="VM" start="17" end="17" type="bool"/>
tdesc       <field name="AC" start="18" end="18" type="bool"/>
tdesc       <field name="VIF" start="19" end="19" type="bool"/>
tdesc       <field name="VIP" start="20" end="20" type="bool"/>
tdesc       <field name="ID" start="21" end="21" type="bool"/>
tdesc     </flags>
tdesc     <reg name="rax" bitsize="64" type="int64" regnum="0"/>
tdesc     <reg name="rbx" bitsize="64" type="int64" regnum="1"/>
tdesc     <reg name="rcx" bitsize="64" type="int64" regnum="2"/>
tdesc     <reg name="rdx" bitsize="64" type="int64" regnum="3"/>
tdesc     <reg name="rsi" bitsize="64" type="int64" regnum="4"/>
tdesc     <reg name="rdi" bitsize="64" type="int64" regnum="5"/>
tdesc     <reg name="rbp" bitsize="64" type="data_ptr" regnum="6"/>
tdesc     <reg name="rsp" bitsize="64" type="data_ptr" regnum="7"/>
tdesc     <reg name="r8" bitsize="64" type="int64" regnum="8"/>
tdesc     <reg name="r9" bitsize="64" type="int64" regnum="9"/>
tdesc     <reg name="r10" bitsize="64" type="int64" regnum="10"/>
tdesc     <reg name="r11" bitsize="64" type="int64" regnum="11"/>
tdesc     <reg name="r12" bitsize="64" type="int64" regnum="12"/>
tdesc     <reg name="r13" bitsize="64" type="int64" regnum="13"/>
tdesc     <reg name="r14" bitsize="64" type="int64" regnum="14"/>
tdesc     <reg name="r15" bitsize="64" type="int64" regnum="15"/>
tdesc     <reg name="rip" bitsize="64" type="code_ptr" regnum="16"/>
tdesc     <reg name="eflags" bitsize="32" type="i386_eflags" regnum="17"/>
tdesc     <reg name="cs" bitsize="32" type="int32" regnum="18"/>
tdesc     <reg name="ss" bitsize="32" type="int32" regnum="19"/>
tdesc     <reg name="ds" bitsize="32" type="int32" regnum="20"/>
tdesc     <reg name="es" bitsize="32" type="int32" regnum="21"/>
tdesc     <reg name="fs" bitsize="32" type="int32" regnum="22"/>
tdesc     <reg name="gs" bitsize="32" type="int32" regnum="23"/>
tdesc     <reg name="st0" bitsize="80" type="i387_ext" regnum="24"/>
tdesc     <reg name="st1" bitsize="80" type="i387_ext" regnum="25"/>
tdesc     <reg name="st2" bitsize="80" type="i387_ext" regnum="26"/>
tdesc     <reg name="st3" bitsize="80" type="i387_ext" regnum="27"/>
tdesc     <reg name="st4" bitsize="80" type="i387_ext" regnum="28"/>
tdesc     <reg name="st5" bitsize="80" type="i387_ext" regnum="29"/>
tdesc     <reg name="st6" bitsize="80" type="i387_ext" regnum="30"/>
tdesc     <reg name="st7" bitsize="80" type="i387_ext" regnum="31"/>
tdesc     <reg name="fctrl" bitsize="32" type="int" regnum="32" group="float"/>
tdesc     <reg name="fstat" bitsize="32" type="int" regnum="33" group="float"/>
tdesc     <reg name="ftag" bitsize="32" type="int" regnum="34" group="float"/>
tdesc     <reg name="fiseg" bitsize="32" type="int" regnum="35" group="float"/>
tdesc     <reg name="fioff" bitsize="32" type="int" regnum="36" group="float"/>
tdesc     <reg name="foseg" bitsize="32" type="int" regnum="37" group="float"/>
tdesc     <reg name="fooff" bitsize="32" type="int" regnum="38" group="float"/>
tdesc     <reg name="fop" bitsize="32" type="int" regnum="39" group="float"/>
tdesc   </feature>
tdesc   <feature name="org.gnu.gdb.i386.sse">
tdesc     <vector id="v8bf16" type="bfloat16" count="8"/>
tdesc     <vector id="v8h" type="ieee_half" count="8"/>
tdesc     <vector id="v4f" type="ieee_single" count="4"/>
tdesc     <vector id="v2d" type="ieee_double" count="2"/>
tdesc     <vector id="v16i8" type="int8" count="16"/>
tdesc     <vector id="v8i16" type="int16" count="8"/>
tdesc     <vector id="v4i32" type="int32" count="4"/>
tdesc     <vector id="v2i64" type="int64" count="2"/>
tdesc     <union id="vec128">
tdesc       <field name="v8_bfloat16" type="v8bf16"/>
tdesc       <field name="v8_half" type="v8h"/>
tdesc       <field name="v4_float" type="v4f"/>
tdesc       <field name="v2_double" type="v2d"/>
tdesc       <field name="v16_int8" type="v16i8"/>
tdesc       <field name="v8_int16" type="v8i16"/>
tdesc       <field name="v4_int32" type="v4i32"/>
tdesc       <field name="v2_int64" type="v2i64"/>
tdesc       <field name="uint128" type="uint128"/>
tdesc     </union>
tdesc     <flags id="i386_mxcsr" size="4">
tdesc       <field name="IE" start="0" end="0" type="bool"/>
tdesc       <field name="DE" start="1" end="1" type="bool"/>
tdesc       <field name="ZE" start="2" end="2" type="bool"/>
tdesc       <field name="OE" start="3" end="3" type="bool"/>
tdesc       <field name="UE" start="4" end="4" type="bool"/>
tdesc       <field name="PE" start="5" end="5" type="bool"/>
tdesc       <field name="DAZ" start="6" end="6" type="bool"/>
tdesc       <field name="IM" start="7" end="7" type="bool"/>
tdesc       <field name="DM" start="8" end="8" type="bool"/>
tdesc       <field name="ZM" start="9" end="9" type="bool"/>
tdesc       <field name="OM" start="10" end="10" type="bool"/>
tdesc       <field name="UM" start="11" end="11" type="bool"/>
tdesc       <field name="PM" start="12" end="12" type="bool"/>
tdesc       <field name="FZ" start="15" end=